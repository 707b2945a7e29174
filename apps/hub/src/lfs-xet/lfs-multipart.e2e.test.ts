import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRepo, downloadFile, uploadFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/hf_hub_multipart_suite.py", import.meta.url));
const CHUNK = 1024 * 1024;

let alice: string;
/** The hub's blob directory, read directly. */
let blobs: BlobStore;
const hub = useTestHub({ lfsMultipartChunkBytes: CHUNK });
beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  blobs = await createFsBlobStore(join(hub.dataDir, "blobs"));
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const json = { "Content-Type": "application/vnd.git-lfs+json" };

/** Blobs in the store: part blobs must be gone once their object is complete. */
async function storedBlobs(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of blobs.list()) keys.add(key);
  return keys;
}

describe("LFS multipart transfer (parts of 1 MiB)", () => {
  it("huggingface_hub's upload_file and `hf upload` go through parts, and the files come back whole", async () => {
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: alice });
    const result = await runPython([SUITE], env);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const { transfers } = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
    expect(transfers).toEqual(["multipart", "multipart"]);
  }, 120_000);

  it("@huggingface/hub uploads parts in parallel; only the assembled object stays stored", async () => {
    const repo = { type: "model" as const, name: "alice/js-multipart" };
    await createRepo({ repo, accessToken: alice, hubUrl: hub.url });
    const before = await storedBlobs();
    const weights = randomBytes(3 * CHUNK + 123);
    await uploadFiles({
      repo,
      accessToken: alice,
      hubUrl: hub.url,
      useXet: false,
      files: [{ path: "model.safetensors", content: new Blob([weights]) }],
    });
    const back = await downloadFile({ repo, hubUrl: hub.url, path: "model.safetensors" });
    expect(sha256(new Uint8Array(await back!.arrayBuffer()))).toBe(sha256(weights));
    const added = [...(await storedBlobs())].filter((key) => !before.has(key));
    // The object itself and the commit's small files (.gitattributes is not new): no part blob is left.
    expect(added).toContain(sha256(weights));
    for (let part = 0; part < 4; part++) {
      expect(added).not.toContain(sha256(weights.subarray(part * CHUNK, (part + 1) * CHUNK)));
    }
  }, 60_000);

  it("refuses a part of the wrong size, a completion with a missing or forged part, and bytes that do not hash", async () => {
    await createRepo({ repo: { type: "model", name: "alice/faulty" }, accessToken: alice, hubUrl: hub.url });
    const content = randomBytes(2 * CHUNK + 10);
    const oid = sha256(content);
    const batch = await fetch(`${hub.url}/alice/faulty.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: { ...json, Authorization: `Bearer ${alice}` },
      body: JSON.stringify({
        operation: "upload",
        transfers: ["basic", "multipart"],
        objects: [{ oid, size: content.length }],
      }),
    }).then((r) => r.json());
    expect(batch.transfer).toBe("multipart");
    const upload = batch.objects[0].actions.upload;
    expect(upload.header.chunk_size).toBe(String(CHUNK));
    const partUrls = ["00001", "00002", "00003"].map((key) => upload.header[key] as string);
    expect(partUrls.every((url) => url.startsWith(`${hub.url}/api/lfs-upload/`))).toBe(true);

    const put = (url: string, bytes: Buffer) => fetch(url, { method: "PUT", body: new Uint8Array(bytes) });
    expect((await put(partUrls[0]!, content.subarray(0, CHUNK - 1))).status).toBe(400);
    const etags: string[] = [];
    for (const [index, url] of partUrls.entries()) {
      const response = await put(url, content.subarray(index * CHUNK, (index + 1) * CHUNK));
      expect(response.status).toBe(200);
      etags.push(response.headers.get("ETag")!);
    }
    const complete = (parts: { partNumber: number; etag: string }[]) =>
      fetch(upload.href, { method: "POST", headers: json, body: JSON.stringify({ oid, parts }) });
    const parts = etags.map((etag, index) => ({ partNumber: index + 1, etag }));
    expect((await complete(parts.slice(0, 2))).status).toBe(400);
    expect((await complete([parts[1]!, parts[0]!, parts[2]!])).status).toBe(400);
    const missing = `"${sha256(Buffer.from("never uploaded"))}"`;
    expect((await complete([parts[0]!, parts[1]!, { partNumber: 3, etag: missing }])).status).toBe(400);
    // A last part of the right size but other bytes: the assembled object does not hash to its oid.
    const other = await put(partUrls[2]!, randomBytes(10));
    const wrong = { partNumber: 3, etag: other.headers.get("ETag")! };
    const mismatch = await complete([parts[0]!, parts[1]!, wrong]);
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("hashes to");
    expect(await blobs.head(oid)).toBeUndefined();
    expect(
      (await fetch(upload.href.replace(/.$/, "x"), { method: "POST", headers: json, body: "{}" })).status,
    ).toBe(401);
    expect((await complete(parts)).status).toBe(200);
    expect((await blobs.head(oid))?.size).toBe(content.length);
  });
});
