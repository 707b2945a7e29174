import { createHash, randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { type BlobStore, StorageFullError } from "../storage/blob-store.js";

let hub: Awaited<ReturnType<typeof repoApp>>;
let app: Awaited<ReturnType<typeof repoApp>>["app"];
let blobs: BlobStore;
let auth: Record<string, string>;
let failPuts = false;

beforeEach(async () => {
  failPuts = false;
  // The disk "fills up" when a test says so: the driver's own error, as a full disk gives it.
  hub = await repoApp({
    wrapBlobs: (fsBlobs) => ({
      ...fsBlobs,
      put: (source, expected) =>
        failPuts ? Promise.reject(new StorageFullError()) : fsBlobs.put(source, expected),
    }),
  });
  ({ app, blobs, auth } = hub);
  await hub.createRepo("alice/faults");
});
afterEach(() => hub.cleanup());

const ndjson = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n");
const header = { key: "header", value: { summary: "test" } };
const file = (path: string, content: string) => ({
  key: "file",
  value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
});

function commit(body: string, revision = "main") {
  return app.request(`/api/models/alice/faults/commit/${revision}`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body,
  });
}

async function head(): Promise<string> {
  const response = await app.request("/api/models/alice/faults/refs");
  return ((await response.json()) as { branches: { targetCommit: string }[] }).branches[0]!.targetCommit;
}

async function files(): Promise<string[]> {
  const response = await app.request("/api/models/alice/faults/tree/main?recursive=true");
  return ((await response.json()) as { path: string; type: string }[])
    .filter((entry) => entry.type === "file")
    .map((entry) => entry.path);
}

describe("paths a commit may not write", () => {
  it.each([
    ["../escape.txt", "reserved"],
    ["a/../../escape.txt", "reserved"],
    ["/etc/passwd", "absolute"],
    ["nul\u0000byte.txt", "control characters"],
    [`${"x".repeat(256)}.txt`, "longer than 255"],
    [`${"deep/".repeat(210)}f.txt`, "longer than 1024"],
    [".git/config", "reserved"],
    ["a//b.txt", "empty path segments"],
    // 422, as the public hub answers a backslash.
    ["dir\\file.txt", "backslashes", 422],
  ])("refuses %j and writes nothing", async (path, why, status = 400) => {
    const before = await head();
    const response = await commit(ndjson(header, file("fine.txt", "fine"), file(path, "bad content")));
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toContain(why);
    expect(await head()).toBe(before);
    expect(await files()).toEqual([".gitattributes"]);
    const badContent = createHash("sha256").update("bad content").digest("hex");
    expect(await blobs.head(badContent)).toBeUndefined();
  });

  it("refuses a file where a folder is, and a folder where a file is (409), writing nothing", async () => {
    expect((await commit(ndjson(header, file("a/b.txt", "1")))).status).toBe(200);
    const before = await head();
    expect((await commit(ndjson(header, file("a", "file over a folder")))).status).toBe(409);
    expect((await commit(ndjson(header, file("a/b.txt/c", "under a file")))).status).toBe(409);
    expect(await head()).toBe(before);
  });
});

describe("concurrent commits", () => {
  it("serialize on one branch: every commit lands, in a single line of history", async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => commit(ndjson(header, file(`c/${i}.txt`, `commit ${i}`)))),
    );
    expect(results.map((response) => response.status)).toEqual(Array(24).fill(200));
    expect((await files()).filter((path) => path.startsWith("c/")).length).toBe(24);
    const history = (await (await app.request("/api/models/alice/faults/commits/main?limit=100")).json()) as {
      id: string;
    }[];
    expect(history).toHaveLength(25);
    expect(new Set(history.map((entry) => entry.id)).size).toBe(25);
  });
});

describe("LFS uploads that do not match", () => {
  async function batch(oid: string, size: number) {
    const response = await app.request("/alice/faults.git/info/lfs/objects/batch", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ operation: "upload", transfers: ["basic"], objects: [{ oid, size }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { objects: { actions?: { upload: { href: string } } }[] }).objects[0]!;
  }

  it("refuses bytes whose sha256 or size differ from the oid, and a commit naming that oid", async () => {
    const content = randomBytes(4096);
    const oid = createHash("sha256").update(content).digest("hex");
    const action = await batch(oid, content.byteLength);
    const uploadPath = new URL(action.actions!.upload.href).pathname;
    const tampered = Buffer.from(content);
    tampered[0]! ^= 1;
    const put = await app.request(uploadPath, { method: "PUT", body: tampered });
    expect(put.status).toBe(400);
    expect(await blobs.head(oid)).toBeUndefined();
    const before = await head();
    const lfsLine = {
      key: "lfsFile",
      value: { path: "w.bin", algo: "sha256", oid, size: content.byteLength },
    };
    const refused = await commit(ndjson(header, lfsLine));
    expect(refused.status).toBe(400);
    expect(await head()).toBe(before);

    // The genuine bytes go through, the object is then skipped by a second batch, and the commit lands.
    expect((await app.request(uploadPath, { method: "PUT", body: content })).status).toBe(200);
    expect((await batch(oid, content.byteLength)).actions).toBeUndefined();
    expect((await commit(ndjson(header, lfsLine))).status).toBe(200);
    const download = await app.request("/alice/faults/resolve/main/w.bin");
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
  });

  it("refuses an upload URL that was tampered with", async () => {
    const content = randomBytes(100);
    const oid = createHash("sha256").update(content).digest("hex");
    const href = (await batch(oid, 100)).actions!.upload.href;
    const forged = href.replace(/\.([A-Za-z0-9_-]+)$/, ".AAAA$1");
    expect((await app.request(new URL(forged).pathname, { method: "PUT", body: content })).status).toBe(401);
  });
});

describe("a full disk", () => {
  it("answers 507 with a clear message and changes nothing", async () => {
    const before = await head();
    failPuts = true;
    const response = await commit(ndjson(header, file("new.txt", "no room")));
    expect(response.status).toBe(507);
    expect(((await response.json()) as { error: string }).error).toContain("storage is full");
    expect(await head()).toBe(before);
    expect(await files()).toEqual([".gitattributes"]);
  });
});
