import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";
import { hubWithOwner } from "./repo-users.js";

// One hub and one browser for the file: alice owns alice/demo.
let harness: WebHarness;
let page: Page;
let scratch: string;
let folder: string;
const LARGE_BYTES = 24 * 1024 * 1024;

beforeAll(async () => {
  ({ harness, page } = await hubWithOwner("alice", ["demo"]));
  // A folder pick names each file from the picked folder down: upload/weights/model.bin.
  scratch = mkdtempSync(join(tmpdir(), "modelhub-upload-"));
  folder = join(scratch, "upload");
  mkdirSync(join(folder, "weights"), { recursive: true });
  writeFileSync(join(folder, "weights", "model.bin"), randomBytes(LARGE_BYTES));
  writeFileSync(join(folder, "weights", "config.json"), `${JSON.stringify({ hidden_size: 64 }, null, 2)}\n`);
  writeFileSync(join(folder, "notes.py"), 'print("hello from the page")\n');
});
afterAll(async () => {
  await harness?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("files and versions", () => {
  it("uploads a folder with a large file from the page, then shows it in the tree", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/demo/tree/main");
    await page.getByText("This folder is empty.").or(page.getByTestId("file-tree")).waitFor();
    await page.locator("details[data-menu] > summary", { hasText: "Add file" }).click();
    await page.getByRole("link", { name: "Upload files" }).click();
    await page.waitForURL("**/alice/demo/upload/main");
    await page.getByTestId("folder-input").setInputFiles(folder);
    const list = page.getByRole("list", { name: "Files to upload" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
    await page.getByLabel("Commit title").fill("Add weights from the browser");
    await page.getByLabel("Description (optional)").fill("A folder with a 24 MB file.");
    await page.getByRole("button", { name: "Commit changes" }).click();
    await page.waitForURL("**/alice/demo/tree/main", { timeout: 60_000 });

    const tree = page.getByTestId("file-tree");
    await tree.getByRole("link", { name: "upload (folder)" }).click();
    const weights = tree.getByRole("row", { name: /weights/ });
    await weights.getByRole("link", { name: "weights (folder)" }).click();
    const model = tree.getByRole("row", { name: /model\.bin/ });
    await expect.poll(() => model.textContent()).toContain("LFS");
    await expect.poll(() => model.textContent()).toContain("25.2 MB");
    await expect.poll(() => model.textContent()).toContain("Add weights from the browser");

    // The hub holds exactly the bytes that were picked (sha256 as the LFS pointer says).
    const info = await page.request.post("/api/models/alice/demo/paths-info/main", {
      data: { paths: ["upload/weights/model.bin"] },
      headers: { "X-CSRF-Token": await csrfOf(page) },
    });
    const [entry] = (await info.json()) as Array<{ size: number; lfs?: { oid: string } }>;
    expect(entry?.size).toBe(LARGE_BYTES);
    expect(entry?.lfs?.oid).toMatch(/^[0-9a-f]{64}$/);
    expect(problems).toEqual([]);
  });

  it("opens a text file with its facts and actions, and an LFS file with its sha256", async () => {
    await page.goto("/alice/demo/blob/main/upload/notes.py");
    await expect.poll(() => page.getByTestId("file-content").textContent()).toContain("hello from the page");
    await page.getByRole("link", { name: "Raw" }).waitFor();
    await page.getByRole("link", { name: "Download" }).waitFor();
    await page.goto("/alice/demo/blob/main/upload/weights/model.bin");
    await expect.poll(() => page.getByTestId("lfs-sha256").textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.getByText("too large to show here").waitFor();
  });

  it("lists the history and opens a commit", async () => {
    await page.goto("/alice/demo/commits/main");
    const history = page.getByTestId("commit-list");
    await history.getByRole("link", { name: "Add weights from the browser" }).click();
    await page.waitForURL(/\/alice\/demo\/commit\/[0-9a-f]{40}$/);
    await page.getByRole("heading", { name: "Add weights from the browser" }).waitFor();
    await page.getByText("A folder with a 24 MB file.").waitFor();
    // The changed files with a text diff; the LFS file said to be LFS.
    const diff = page.getByTestId("diff");
    await diff
      .getByRole("region", { name: "Diff of upload/notes.py" })
      .getByText('+print("hello from the page")')
      .waitFor();
    await diff.getByText("Stored with Git LFS (25.2 MB).").waitFor();
    await page.getByText("3 changed files").waitFor();
  });
});

describe("cancelling an upload", () => {
  it("stops a large upload on Cancel and commits nothing", async () => {
    const big = join(scratch, "huge.bin");
    writeFileSync(big, Buffer.alloc(256 * 1024 * 1024));
    const before = await page.request.get("/api/models/alice/demo/commits/main");
    const commitsBefore = ((await before.json()) as unknown[]).length;
    await page.goto("/alice/demo/upload/main");
    await page.getByTestId("files-input").setInputFiles(big);
    await page.getByRole("button", { name: "Commit changes" }).click();
    await page.getByRole("button", { name: "Cancel upload" }).click();
    await page.getByRole("status").getByText("Upload cancelled: nothing was committed.").waitFor();
    const after = await page.request.get("/api/models/alice/demo/commits/main");
    expect(((await after.json()) as unknown[]).length).toBe(commitsBefore);
  });
});

describe("model page layout", () => {
  it("offers to create a missing README and shows the last commit in the header", async () => {
    await page.goto("/alice/demo");
    await page
      .getByTestId("last-commit")
      .getByRole("link", { name: "Add weights from the browser" })
      .waitFor();
    await page.getByRole("link", { name: "Create one" }).click();
    await page.waitForURL("**/alice/demo/new/main?filename=README.md");
    await expect.poll(() => page.getByLabel("File name").inputValue()).toBe("README.md");
  });

  it("lists a GGUF repository's quantizations with their real file sizes", async () => {
    await page.goto("/bartowski/Llama-3.2-3B-Instruct-GGUF");
    const files = page.getByTestId("gguf-files").getByRole("listitem");
    await files.first().waitFor();
    const rows = await files.allTextContents();
    expect(rows.length).toBeGreaterThan(1);
    // A demo copy's files are metadata only: each says so beside its real size.
    for (const row of rows) expect(row).toMatch(/\d(\.\d+)? (B|kB|MB|GB), no weights$/);
  });
});

describe("history of one file", () => {
  it("the file view's History lists only the commits that changed that file", async () => {
    const csrf = await csrfOf(page);
    const commit = async (summary: string, path: string, content: string) => {
      const lines = [
        { key: "header", value: { summary } },
        {
          key: "file",
          value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
        },
      ];
      const response = await page.request.post("/api/models/alice/demo/commit/main", {
        data: lines.map((line) => JSON.stringify(line)).join("\n"),
        headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-ndjson" },
      });
      expect(response.status(), await response.text()).toBe(200);
    };
    await commit("Edit notes", "upload/notes.py", 'print("edited")\n');
    await commit("Tune config", "upload/weights/config.json", '{"hidden_size": 128}\n');

    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/demo/blob/main/upload/notes.py");
    await page.getByRole("link", { name: "History" }).click();
    await page.waitForURL("**/alice/demo/commits/main/upload/notes.py");
    await page.getByRole("heading", { name: "History of upload/notes.py" }).waitFor();
    const history = page.getByTestId("commit-list");
    await history.getByRole("listitem").first().waitFor();
    const titles = await history.getByRole("listitem").getByRole("link").allTextContents();
    expect(titles.filter((title) => !/^(Commit|Browse)/.test(title))).toEqual([
      "Edit notes",
      "Add weights from the browser",
    ]);
    // A folder's History (from the tree) covers what changed under it.
    await page.goto("/alice/demo/tree/main/upload/weights");
    await page.getByRole("link", { name: "History" }).click();
    await page.waitForURL("**/alice/demo/commits/main/upload/weights");
    await history.getByRole("link", { name: "Tune config" }).waitFor();
    expect(await history.getByRole("link", { name: "Edit notes" }).count()).toBe(0);
    await page.getByRole("link", { name: "Whole history" }).click();
    await page.waitForURL("**/alice/demo/commits/main");
    await history.getByRole("link", { name: "Edit notes" }).waitFor();
    expect(problems).toEqual([]);
  });
});

async function csrfOf(page: Page): Promise<string> {
  const response = await page.request.get("/api/auth/session");
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}
