import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileResponseBody } from "./file-response-body.js";

// A file several times the buffers one answer cycles through (6 x 1 MiB), so that every buffer is reused.
const content = randomBytes(23 * 1024 * 1024 + 12_345);
const dir = mkdtempSync(join(tmpdir(), "file-body-"));
const path = join(dir, "blob");
const shortPath = join(dir, "short-blob");
let server: Server;
let base: string;
/** How many times each `/file?tag=...` answer said it was over (the onEnd a mirrored cache read's release uses). */
const ends = new Map<string, number>();

beforeAll(async () => {
  writeFileSync(path, content);
  writeFileSync(shortPath, content.subarray(0, 9 * 1024 * 1024 + 7));
  const app = new Hono();
  app.get("/file", (c) => {
    // `path=short` serves a copy cut short of what the answer says it holds (a blob shorter than recorded).
    const file = c.req.query("path") === "short" ? shortPath : path;
    const start = Number(c.req.query("start") ?? 0);
    const end = Number(c.req.query("end") ?? content.length - 1);
    const tag = c.req.query("tag");
    const onEnd = tag ? () => ends.set(tag, (ends.get(tag) ?? 0) + 1) : undefined;
    return new Response(fileResponseBody(file, { start, end }, onEnd), {
      headers: { "Content-Length": String(end - start + 1) },
    });
  });
  // As start-hub.ts serves the app: node:http with @hono/node-server's listener.
  const listener = getRequestListener(app.fetch);
  server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const openFiles = () => readdirSync("/proc/self/fd").length;

/**
 * GETs `path`, reading slowly when `slow` (a pause every few chunks, so that the socket fills and the server
 * waits for 'drain' between its writes); `abortAfter` bytes ends the request early.
 */
function download(url: string, options: { slow?: boolean; abortAfter?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = get(url, (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let count = 0;
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (options.abortAfter !== undefined && received >= options.abortAfter) {
          request.destroy();
          resolve(Buffer.concat(chunks));
          return;
        }
        if (options.slow && ++count % 8 === 0) {
          response.pause();
          setTimeout(() => response.resume(), 2);
        }
      });
      response.on("end", () => resolve(Buffer.concat(chunks)));
      response.on("error", reject);
    });
    request.on("error", (error) => (options.abortAfter === undefined ? reject(error) : undefined));
  });
}

describe("fileResponseBody", () => {
  it("sends a file byte-identical through the node server, to a fast and to a slow reader", async () => {
    expect(sha256(await download(`${base}/file`))).toBe(sha256(content));
    expect(sha256(await download(`${base}/file`, { slow: true }))).toBe(sha256(content));
  }, 60_000);

  it("sends a range, and several answers at once each get their own bytes", async () => {
    const ranges = [
      [0, 0],
      [1, 600_000],
      [5_000_000, content.length - 1],
      [524_287, 524_288 * 9 + 3],
      [1_048_575, 1_048_576 * 7],
    ] as const;
    const answers = await Promise.all(
      ranges.map(([start, end]) => download(`${base}/file?start=${start}&end=${end}`, { slow: true })),
    );
    for (const [index, [start, end]] of ranges.entries()) {
      expect(answers[index]!.equals(content.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  }, 60_000);

  it("says once that an answer is over: sent whole, and cut by the client", async () => {
    await download(`${base}/file?tag=whole`);
    await expect.poll(() => ends.get("whole"), { timeout: 5_000 }).toBe(1);
    await download(`${base}/file?tag=cut`, { slow: true, abortAfter: 2 * 1024 * 1024 });
    await expect.poll(() => ends.get("cut"), { timeout: 5_000 }).toBe(1);
    expect(ends.get("whole")).toBe(1);
  }, 30_000);

  it("closes the file when the client goes away mid-answer", async () => {
    const before = openFiles();
    const partial = await download(`${base}/file`, { slow: true, abortAfter: 2 * 1024 * 1024 });
    expect(partial.equals(content.subarray(0, partial.length))).toBe(true);
    await expect.poll(openFiles, { timeout: 5_000 }).toBeLessThanOrEqual(before);
  }, 30_000);

  it("cuts the answer short, and closes the file, when the file ends before the range does", async () => {
    const before = openFiles();
    const received = await new Promise<{ bytes: number; complete: boolean }>((resolve) => {
      get(`${base}/file?path=short&tag=short`, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on("end", () => resolve({ bytes, complete: response.complete }));
        response.on("error", () => resolve({ bytes, complete: false }));
      }).on("error", () => resolve({ bytes: -1, complete: false }));
    });
    // The client sees a body that stops before its Content-Length, never a complete answer.
    expect(received.complete).toBe(false);
    expect(received.bytes).toBeLessThanOrEqual(9 * 1024 * 1024 + 7);
    await expect.poll(() => ends.get("short"), { timeout: 5_000 }).toBe(1);
    await expect.poll(openFiles, { timeout: 5_000 }).toBeLessThanOrEqual(before);
  }, 30_000);
});
