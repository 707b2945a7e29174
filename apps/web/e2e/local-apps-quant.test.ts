import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";
import { hubWithOwner } from "./repo-users.js";

// One hub and one browser: alice uploads two real GGUF files of one 64,000-weight model to alice/tiny-GGUF.
let harness: WebHarness;
let page: Page;
const WEIGHTS = 64_000;

/**
 * A GGUF v3 file with one tensor of WEIGHTS elements in ggml type `ggmlType`, its header padded to the default
 * alignment (32) and `dataBytes` of data: at least what the tensor's type needs, or the hub's reader calls
 * the header malformed and the page has no weight count.
 */
function gguf(ggmlType: number, dataBytes: number): Buffer {
  const string = (text: string) => {
    const bytes = Buffer.from(text);
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(bytes.length));
    return Buffer.concat([length, bytes]);
  };
  const u32 = (value: number) => Buffer.from(Uint32Array.of(value).buffer);
  const u64 = (value: number) => {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    return buffer;
  };
  const header = Buffer.concat([
    Buffer.from("GGUF"),
    u32(3),
    u64(1), // tensors
    u64(1), // metadata entries
    string("general.architecture"),
    u32(8), // string
    string("llama"),
    string("blk.0.weight"),
    u32(1),
    u64(WEIGHTS),
    u32(ggmlType),
    u64(0),
  ]);
  const padding = (32 - (header.length % 32)) % 32;
  return Buffer.concat([header, Buffer.alloc(padding), Buffer.alloc(dataBytes)]);
}

// Q4_K: 256 weights in 144 bytes (36,000 bytes here); Q8_0: 32 weights in 34 bytes (68,000).
const Q4_K = 12;
const Q8_0 = 8;
const FILES = { "tiny-Q4_K_M.gguf": gguf(Q4_K, 40_000), "tiny-Q8_0.gguf": gguf(Q8_0, 68_000) };

beforeAll(async () => {
  const owner = await hubWithOwner("alice", ["tiny-GGUF"]);
  ({ harness, page } = owner);
  const { csrf } = owner;
  const lines = [
    { key: "header", value: { summary: "Add two quantizations" } },
    ...Object.entries(FILES).map(([path, content]) => ({
      key: "file",
      value: { path, content: content.toString("base64"), encoding: "base64" },
    })),
  ];
  const response = await page.request.post("/api/models/alice/tiny-GGUF/commit/main", {
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
    headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-ndjson" },
  });
  if (!response.ok()) throw new Error(`commit: ${response.status()} ${await response.text()}`);
});
afterAll(async () => {
  await harness?.close();
});

describe("the local-apps quantization pick", () => {
  it("shows each file's real size and the bits per weight it spends, from the GGUF header's count", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/tiny-GGUF/local-apps/llama.cpp");
    const pick = page.getByTestId("quant-select");
    await pick.waitFor();
    const bpw = (file: Buffer) => ((file.byteLength * 8) / WEIGHTS).toFixed(2);
    const q4 = `Q4_K_M · ${bpw(FILES["tiny-Q4_K_M.gguf"])} bpw · 40.1 KB`;
    const q8 = `Q8_0 · ${bpw(FILES["tiny-Q8_0.gguf"])} bpw · 68.1 KB`;
    await expect.poll(() => pick.textContent()).toContain(q4);
    await pick.click();
    await page.getByRole("option", { name: q8 }).waitFor();
    await page.keyboard.press("Escape");
    expect(problems).toEqual([]);
  });

  it("says a demo copy's bits per weight are nominal: its files are too small to hold the weights", async () => {
    await page.goto("/bartowski/Llama-3.2-3B-Instruct-GGUF/local-apps/llama.cpp");
    const pick = page.getByTestId("quant-select");
    await expect
      .poll(() => pick.textContent())
      .toMatch(/Q4_K_M · 4\.50 bpw nominal · \d+(\.\d)? KB here: metadata only, no weights/);
  });
});
