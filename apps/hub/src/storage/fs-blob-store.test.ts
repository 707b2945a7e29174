import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { BlobMismatchError, BlobNotFoundError, type BlobStore } from "./blob-store.js";
import { createFsBlobStore } from "./fs-blob-store.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const chunks = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)));
async function text(stream: AsyncIterable<Buffer>) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts).toString();
}

let temp: ReturnType<typeof makeTempDir>;
let store: BlobStore;
beforeEach(async () => {
  temp = makeTempDir();
  store = await createFsBlobStore(temp.dir);
});
afterEach(() => temp.remove());

describe("fs blob store", () => {
  it("puts content under the caller's key without hashing it, and keeps nothing its caller refused", async () => {
    const key = "ab".repeat(32);
    const info = await store.putKeyed(key, chunks("xorb ", "bytes"), { size: 10 });
    expect(info).toEqual({ sha256: key, size: 10 });
    expect(await text(await store.get(key))).toBe("xorb bytes");
    expect(await store.head(sha256(Buffer.from("xorb bytes")))).toBeUndefined();
    // The caller's check throws before the source ends: nothing under the key, nothing left in tmp/.
    const other = "cd".repeat(32);
    async function* refused() {
      yield Buffer.from("half");
      throw new Error("chunk does not hash to its xorb");
    }
    await expect(store.putKeyed(other, refused())).rejects.toThrow("chunk does not hash");
    await expect(store.putKeyed(other, chunks("abc"), { size: 4 })).rejects.toBeInstanceOf(BlobMismatchError);
    expect(await store.head(other)).toBeUndefined();
    await expect(store.putKeyed("not-a-key", chunks("abc"))).rejects.toBeInstanceOf(TypeError);
    // Stored already: the source is still read to its end (the caller's checks run), one copy stays.
    let read = false;
    async function* again() {
      yield Buffer.from("xorb bytes");
      read = true;
    }
    expect(await store.putKeyed(key, again())).toMatchObject({ sha256: key, size: 10 });
    expect(read).toBe(true);
    const tmp = readdirSync(join(temp.dir, "tmp"), { recursive: true, withFileTypes: true });
    expect(tmp.filter((entry) => entry.isFile())).toEqual([]);
  });

  it("adopts a complete file by moving it, and refuses one that is not the announced content", async () => {
    const { writeFileSync, existsSync } = await import("node:fs");
    const file = join(temp.dir, "download");
    writeFileSync(file, "adopted bytes");
    await expect(store.adopt!(file, { sha256: sha256(Buffer.from("other bytes")) })).rejects.toBeInstanceOf(
      BlobMismatchError,
    );
    expect(existsSync(file)).toBe(true);
    const info = await store.adopt!(file, { sha256: sha256(Buffer.from("adopted bytes")), size: 13 });
    expect(info).toEqual({ sha256: sha256(Buffer.from("adopted bytes")), size: 13 });
    expect(existsSync(file)).toBe(false);
    expect(await text(await store.get(info.sha256))).toBe("adopted bytes");
  });

  it("adopts a file its writer hashed by checking its size only, and refuses a wrong size", async () => {
    const { writeFileSync, existsSync } = await import("node:fs");
    const file = join(temp.dir, "verified");
    writeFileSync(file, "verified bytes");
    const declared = sha256(Buffer.from("verified bytes"));
    await expect(
      store.adopt!(file, { sha256: declared, size: 15 }, { hashedByCaller: true }),
    ).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.adopt!(file, { size: 14 }, { hashedByCaller: true })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(existsSync(file)).toBe(true);
    const info = await store.adopt!(file, { sha256: declared, size: 14 }, { hashedByCaller: true });
    expect(info).toEqual({ sha256: declared, size: 14 });
    expect(existsSync(file)).toBe(false);
    expect(await text(await store.get(declared))).toBe("verified bytes");
  });

  it("stores streamed content under its sha256 and reads it back whole or by range", async () => {
    const info = await store.put(chunks("hello ", "world"));
    expect(info).toEqual({ sha256: sha256(Buffer.from("hello world")), size: 11 });
    expect(await text(await store.get(info.sha256))).toBe("hello world");
    expect(await text(await store.get(info.sha256, { start: 6, end: 10 }))).toBe("world");
    expect((await store.read(info.sha256, { start: 0, end: 4 })).toString()).toBe("hello");
    expect(await store.head(info.sha256)).toMatchObject(info);
  });

  it("keeps one copy of the same content", async () => {
    await store.put(chunks("same"));
    await store.put(chunks("sa", "me"));
    const listed: string[] = [];
    for await (const key of store.list()) listed.push(key);
    expect(listed).toEqual([sha256(Buffer.from("same"))]);
  });

  it("refuses content whose hash or size differs from the announced one and keeps nothing", async () => {
    const wrongHash = "0".repeat(64);
    await expect(store.put(chunks("abc"), { sha256: wrongHash })).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.put(chunks("abc"), { size: 2 })).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.put(chunks("abc"), { size: 4 })).rejects.toBeInstanceOf(BlobMismatchError);
    expect(await store.head(sha256(Buffer.from("abc")))).toBeUndefined();
    expect(
      readdirSync(join(temp.dir, "tmp")).flatMap((dir) => readdirSync(join(temp.dir, "tmp", dir))),
    ).toEqual([]);
  });

  it("answers missing blobs with BlobNotFoundError, and delete is idempotent", async () => {
    const missing = "a".repeat(64);
    await expect(store.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.read(missing, { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
    const info = await store.put(chunks("gone"));
    await store.delete(info.sha256);
    await store.delete(info.sha256);
    expect(await store.head(info.sha256)).toBeUndefined();
  });

  it("removes a crashed writer's temporary files once stale, and never a live one's", async () => {
    const { mkdirSync, utimesSync, writeFileSync } = await import("node:fs");
    const crashed = join(temp.dir, "tmp", "crashed");
    mkdirSync(crashed);
    writeFileSync(join(crashed, "torn"), "partial");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(crashed, old, old);
    const live = readdirSync(join(temp.dir, "tmp")).filter((dir) => dir !== "crashed");
    await createFsBlobStore(temp.dir);
    const left = readdirSync(join(temp.dir, "tmp"));
    expect(left).not.toContain("crashed");
    expect(left).toEqual(expect.arrayContaining(live));
  });
});

describe("fs blob store, large uploads (written and hashed on the worker thread)", () => {
  const large = randomBytes((9 << 20) + 4321);
  const pieces = (bytes: Buffer, size: number) =>
    Readable.from(
      Array.from({ length: Math.ceil(bytes.byteLength / size) }, (_, i) =>
        bytes.subarray(i * size, (i + 1) * size),
      ),
    );
  const tmpFiles = () =>
    readdirSync(join(temp.dir, "tmp")).flatMap((dir) => readdirSync(join(temp.dir, "tmp", dir)));

  it("stores the bytes whole, in order, under their sha256", async () => {
    const info = await store.put(pieces(large, 65_536), { sha256: sha256(large), size: large.byteLength });
    expect(info).toEqual({ sha256: sha256(large), size: large.byteLength });
    const back: Buffer[] = [];
    for await (const part of await store.get(info.sha256)) back.push(part as Buffer);
    expect(Buffer.concat(back).equals(large)).toBe(true);
    expect(tmpFiles()).toEqual([]);
  });

  it("refuses other bytes, a short body, an over-long one and a failing source, keeping nothing", async () => {
    const announced = { sha256: sha256(large), size: large.byteLength };
    const tampered = Buffer.from(large);
    tampered[5 << 20]! ^= 1;
    await expect(store.put(pieces(tampered, 65_536), announced)).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(store.put(pieces(large.subarray(1), 4097), announced)).rejects.toBeInstanceOf(
      BlobMismatchError,
    );
    const longer = Buffer.concat([large, Buffer.from("x")]);
    await expect(store.put(pieces(longer, 1 << 20), announced)).rejects.toBeInstanceOf(BlobMismatchError);
    const failing = (async function* () {
      yield large.subarray(0, 6 << 20);
      throw new Error("the client went away");
    })();
    await expect(store.put(failing, announced)).rejects.toThrow("the client went away");
    expect(await store.head(announced.sha256)).toBeUndefined();
    expect(tmpFiles()).toEqual([]);
  });
});
