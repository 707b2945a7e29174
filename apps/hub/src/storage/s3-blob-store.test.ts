import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3Server, TEST_BUCKET, type TestS3Server } from "../__fixtures__/s3-server.js";
import { BlobMismatchError, BlobNotFoundError, type BlobStore } from "./blob-store.js";
import { parseBlobSettings } from "./blob-store-config.js";
import { createS3BlobStore } from "./s3-blob-store.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const chunks = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)));
async function bytesOf(stream: AsyncIterable<Buffer>) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}
/** `total` bytes of `data` repeated, in 64 KiB chunks, as a request body arrives. */
async function* streamed(data: Buffer, total: number) {
  for (let offset = 0; offset < total; offset += 65536) {
    yield data.subarray(offset % data.length, (offset % data.length) + Math.min(65536, total - offset));
  }
}

/** Every file s3rver keeps under the bucket: objects, their metadata, and any multipart parts left. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

let s3: TestS3Server;
let store: BlobStore;
const calls: { operation: string; status: number }[] = [];
beforeAll(async () => {
  s3 = await startTestS3Server();
  store = createS3BlobStore({
    ...s3.options("hub/"),
    partSize: 5 * 1024 * 1024,
    queueSize: 2,
    observe: (call) => calls.push(call),
  });
});
afterAll(() => s3.close());

describe("S3 blob store (against s3rver on loopback)", () => {
  it("stores streamed content under its sha256 and reads it back whole or by range", async () => {
    const info = await store.put(chunks("hello ", "world"));
    expect(info).toEqual({ sha256: sha256(Buffer.from("hello world")), size: 11 });
    expect((await bytesOf(await store.get(info.sha256))).toString()).toBe("hello world");
    expect((await bytesOf(await store.get(info.sha256, { start: 6, end: 10 }))).toString()).toBe("world");
    expect((await store.read(info.sha256, { start: 0, end: 4 })).toString()).toBe("hello");
    expect(await store.head(info.sha256)).toEqual(info);
    // The key layout is the fs driver's, under the prefix; the temporary object of the upload is gone.
    const keys = filesUnder(join(s3.directory, TEST_BUCKET)).filter(
      (file) => !file.endsWith("._S3rver_metadata.json"),
    );
    expect(keys).toContain(
      `hub/sha256/${info.sha256.slice(0, 2)}/${info.sha256.slice(2, 4)}/${info.sha256}._S3rver_object`,
    );
    expect(keys.filter((key) => key.startsWith("hub/tmp/"))).toEqual([]);
  });

  it("uploads a large announced blob in multipart parts, verified, and serves any range of it", async () => {
    const seed = randomBytes(1 << 20);
    const total = 12 * 1024 * 1024 + 123;
    const whole = await bytesOf(Readable.from(streamed(seed, total)));
    const hash = sha256(whole);
    calls.length = 0;
    const info = await store.put(streamed(seed, total), { sha256: hash, size: total });
    expect(info).toEqual({ sha256: hash, size: total });
    const operations = calls.map((call) => call.operation);
    expect(operations.filter((op) => op === "UploadPart")).toHaveLength(3);
    expect(operations).toContain("CompleteMultipartUpload");
    expect(operations).not.toContain("CopyObject");
    const start = 5 * 1024 * 1024 - 7;
    const end = 10 * 1024 * 1024 + 11;
    expect(
      (await bytesOf(await store.get(hash, { start, end }))).equals(whole.subarray(start, end + 1)),
    ).toBe(true);
    expect(sha256(await bytesOf(await store.get(hash)))).toBe(hash);
    // Sending the same content again reads and checks it, and uploads nothing.
    calls.length = 0;
    await store.put(streamed(seed, total), { sha256: hash, size: total });
    expect(calls.map((call) => call.operation)).toEqual(["HeadObject"]);
  });

  it("refuses content that is not what was announced and leaves no object behind", async () => {
    const seed = randomBytes(1 << 20);
    const total = 11 * 1024 * 1024;
    const before = filesUnder(join(s3.directory, TEST_BUCKET));
    const wrong = "0".repeat(64);
    calls.length = 0;
    await expect(store.put(streamed(seed, total), { sha256: wrong })).rejects.toBeInstanceOf(
      BlobMismatchError,
    );
    expect(calls.map((call) => call.operation)).toContain("AbortMultipartUpload");
    expect(calls.map((call) => call.operation)).not.toContain("CompleteMultipartUpload");
    await expect(store.put(chunks("abc"), { size: 2 })).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.put(chunks("abc"), { size: 4 })).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.put(chunks("abc"), { sha256: wrong })).rejects.toBeInstanceOf(BlobMismatchError);
    expect(await store.head(wrong)).toBeUndefined();
    expect(await store.head(sha256(Buffer.from("abc")))).toBeUndefined();
    // s3rver answers AbortMultipartUpload with 405 (not implemented), so its part files stay on its disk;
    // S3 and MinIO remove them on abort. No object appeared.
    const objects = (files: string[]) => files.filter((file) => !file.startsWith("._S3rver_uploads/"));
    expect(objects(filesUnder(join(s3.directory, TEST_BUCKET)))).toEqual(objects(before));
  });

  it("puts content under the caller's key without hashing it, and keeps nothing its caller refused", async () => {
    const key = "ef".repeat(32);
    const seed = randomBytes(1 << 20);
    const total = 11 * 1024 * 1024;
    expect(await store.putKeyed(key, streamed(seed, total), { size: total })).toEqual({
      sha256: key,
      size: total,
    });
    expect((await bytesOf(await store.get(key, { start: 0, end: 9 }))).equals(seed.subarray(0, 10))).toBe(
      true,
    );
    const other = "12".repeat(32);
    async function* refused() {
      yield* streamed(seed, 6 * 1024 * 1024);
      throw new Error("chunk does not hash to its xorb");
    }
    await expect(store.putKeyed(other, refused())).rejects.toThrow("chunk does not hash");
    await expect(store.putKeyed(other, chunks("abc"), { size: 4 })).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.putKeyed(other, chunks("abc"), { size: 2 })).rejects.toBeInstanceOf(BlobMismatchError);
    expect(await store.head(other)).toBeUndefined();
    let read = false;
    async function* again() {
      yield* streamed(seed, total);
      read = true;
    }
    expect((await store.putKeyed(key, again())).size).toBe(total);
    expect(read).toBe(true);
  });

  it("keeps one copy, lists, deletes idempotently and answers missing blobs with BlobNotFoundError", async () => {
    const one = await store.put(chunks("same"));
    await store.put(chunks("sa", "me"));
    const listed: string[] = [];
    for await (const key of store.list()) listed.push(key);
    expect(listed.filter((key) => key === one.sha256)).toHaveLength(1);
    const missing = "a".repeat(64);
    await expect(store.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.read(missing, { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
    await store.delete(one.sha256);
    await store.delete(one.sha256);
    expect(await store.head(one.sha256)).toBeUndefined();
    expect(await store.read(sha256(Buffer.from("hello world")), { start: 50, end: 60 })).toHaveLength(0);
  });

  it("presigns download URLs that the store honours with ranges and the file's name", async () => {
    const info = await store.put(chunks("0123456789"));
    const url = await store.downloadUrl!(info.sha256, {
      contentDisposition: 'inline; filename="model.bin"',
      contentType: "application/octet-stream",
      expiresInSeconds: 60,
    });
    expect(url.startsWith(`${s3.endpoint}/${TEST_BUCKET}/hub/sha256/`)).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-disposition")).toBe('inline; filename="model.bin"');
    expect(await whole.text()).toBe("0123456789");
    const part = await fetch(url, { headers: { Range: "bytes=3-5" } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("345");
    // Signed by the SDK for 60 s. s3rver does not check SigV4 signatures at all (see apps/hub/README.md).
    const query = new URL(url).searchParams;
    expect(query.get("X-Amz-Expires")).toBe("60");
    expect(query.get("X-Amz-Credential")).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(query.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reports an unreachable store as an error, not as a missing blob", async () => {
    const down = createS3BlobStore({ ...s3.options(), endpoint: "http://127.0.0.1:9", maxAttempts: 1 });
    await expect(down.head("c".repeat(64))).rejects.toThrow();
  });
});

describe("BLOB_STORE and the S3 settings", () => {
  it("reads the bucket, prefix and the usual AWS settings", () => {
    const problems: string[] = [];
    const settings = parseBlobSettings(
      {
        BLOB_STORE: "s3://models-bucket/hub/prod/",
        AWS_ENDPOINT_URL_S3: "http://minio.internal:9000",
        AWS_REGION: "eu-west-3",
        AWS_ACCESS_KEY_ID: "AKIA",
        AWS_SECRET_ACCESS_KEY: "secret",
        BLOB_DOWNLOAD: "redirect",
      },
      problems,
    );
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      blobDownload: "redirect",
      blobStore: {
        kind: "s3",
        bucket: "models-bucket",
        prefix: "hub/prod/",
        endpoint: "http://minio.internal:9000",
        publicEndpoint: undefined,
        region: "eu-west-3",
        forcePathStyle: true,
        credentials: { accessKeyId: "AKIA", secretAccessKey: "secret", sessionToken: undefined },
      },
    });
    expect(
      parseBlobSettings({ BLOB_STORE: "s3://b-1", S3_FORCE_PATH_STYLE: "false" }, problems),
    ).toMatchObject({
      blobStore: {
        bucket: "b-1",
        prefix: "",
        forcePathStyle: false,
        credentials: undefined,
        region: "us-east-1",
      },
    });
    expect(parseBlobSettings({}, problems)).toEqual({ blobStore: { kind: "fs" }, blobDownload: "proxy" });
    expect(problems).toEqual([]);
  });

  it("names every problem", () => {
    const problems: string[] = [];
    parseBlobSettings({ BLOB_STORE: "s3:/nope", BLOB_DOWNLOAD: "cdn" }, problems);
    parseBlobSettings({ BLOB_DOWNLOAD: "redirect" }, problems);
    parseBlobSettings(
      { BLOB_STORE: "s3://ok-bucket", AWS_ACCESS_KEY_ID: "x", S3_FORCE_PATH_STYLE: "yes" },
      problems,
    );
    expect(problems).toEqual([
      'BLOB_DOWNLOAD must be "proxy" or "redirect", got "cdn".',
      'BLOB_STORE must be "fs" or s3://bucket/prefix, got "s3:/nope".',
      "BLOB_DOWNLOAD=redirect needs an object store (BLOB_STORE=s3://bucket/prefix).",
      'S3_FORCE_PATH_STYLE must be true or false, got "yes".',
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together.",
    ]);
  });
});
