import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, mkdir, open, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  type AdoptOptions,
  assertBlobKey,
  type BlobInfo,
  BlobMismatchError,
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  type ExpectedBlob,
  isSha256,
  StorageFullError,
} from "./blob-store.js";
import { inThreadHash, offThreadHash } from "./off-thread-hash.js";
import { openTmpDir } from "./tmp-dirs.js";

/** Uploads at least this large are hashed on a worker thread, beside the socket reads and disk writes. */
const OFF_THREAD_HASH_BYTES = 8 * 1024 * 1024;

/** Flushes a file's bytes to disk: before a rename makes them visible under their final name. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The local-filesystem driver: `<root>/sha256/ab/cd/<sha256>`. A put streams into `<root>/tmp/`, fsyncs, then
 * renames into place, so a crash at any point leaves either no blob or a complete one (never a torn file
 * under its final name). Each open store writes in its own directory under `tmp/` (several processes may
 * share the blob directory); a crashed process's partial uploads are removed when a store opens, or later
 * by a live one when the owner is on another machine (tmp-dirs.ts says how).
 */
/** The bytes as hashed, when they are what the caller announced; BlobMismatchError otherwise. */
function checked(expected: ExpectedBlob, actual: { sha256: string; size: number }) {
  if (
    (expected.sha256 !== undefined && expected.sha256 !== actual.sha256) ||
    (expected.size !== undefined && expected.size !== actual.size)
  ) {
    throw new BlobMismatchError(expected, actual);
  }
  return actual;
}

/** The sha256 and size of a file's bytes. */
async function hashOfFile(path: string, expected: ExpectedBlob): Promise<{ sha256: string; size: number }> {
  const hash = (expected.size ?? 0) >= OFF_THREAD_HASH_BYTES ? offThreadHash() : inThreadHash();
  let size = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      const behind = hash.update(chunk as Buffer);
      if (behind) await behind;
      size += (chunk as Buffer).byteLength;
    }
  } catch (error) {
    hash.abandon();
    throw error;
  }
  return { sha256: await hash.digest(), size };
}

/** A file its writer hashed (AdoptOptions.hashedByCaller): its declared sha256, and its size as on disk. */
async function hashedByCaller(
  path: string,
  expected: ExpectedBlob,
): Promise<{ sha256: string; size: number }> {
  if (!isSha256(expected.sha256) || expected.size === undefined) {
    throw new TypeError("adopt: hashedByCaller needs the expected sha256 and size.");
  }
  return { sha256: expected.sha256, size: (await stat(path)).size };
}

export async function createFsBlobStore(root: string): Promise<BlobStore> {
  const objectsDir = join(root, "sha256");
  await mkdir(objectsDir, { recursive: true });
  const tmpDir = await openTmpDir(join(root, "tmp"));

  const pathOf = (sha256: string) => {
    if (!isSha256(sha256)) throw new BlobNotFoundError(String(sha256).slice(0, 80));
    return join(objectsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };

  async function head(sha256: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(pathOf(sha256));
      return { sha256, size: info.size, modifiedAt: info.mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /**
   * Content already stored: its time refreshed instead of writing it again, so that garbage collection (which
   * spares recent blobs) cannot take it while the caller is about to reference it. False when it is not there,
   * or was collected between the two calls: the caller stores its copy.
   */
  async function refreshedIfStored(sha256: string): Promise<boolean> {
    if (!(await head(sha256))) return false;
    const now = new Date();
    return utimes(pathOf(sha256), now, now).then(
      () => true,
      () => false,
    );
  }

  /** A complete, synced temporary file moved under its key (or dropped when that content is stored already). */
  async function placed(tmp: string, actual: { sha256: string; size: number }): Promise<BlobInfo> {
    const final = pathOf(actual.sha256);
    if (await refreshedIfStored(actual.sha256)) {
      await rm(tmp, { force: true });
      return actual;
    }
    await mkdir(join(final, ".."), { recursive: true });
    await rename(tmp, final);
    return actual;
  }

  /**
   * A large upload: each chunk is copied once into the ring shared with the hashing worker, which writes it
   * to the temporary file and hashes it there (off-thread-hash.ts). A chunk is garbage as soon as it is
   * copied (none waits in a write stream's queue through a young-generation collection, to be promoted and
   * freed only by a full one), and the event loop makes no write call: it reads the socket and copies.
   */
  async function storeOffThread(
    source: AsyncIterable<Uint8Array>,
    expected: ExpectedBlob,
  ): Promise<BlobInfo> {
    const tmp = join(tmpDir, randomBytes(12).toString("hex"));
    const file = await open(tmp, "w");
    let stillOpen = true;
    const hash = offThreadHash({ writeTo: file.fd });
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        // Stop early on an over-long body: no need to write what will be refused.
        if (expected.size !== undefined && size > expected.size) break;
        const behind = hash.update(chunk);
        if (behind) await behind;
      }
      const sha256 = await hash.digest();
      // The bytes must be on disk before the rename makes them visible under their final name.
      await file.sync();
      stillOpen = false;
      await file.close();
      return await placed(tmp, checked(expected, { sha256, size }));
    } catch (error) {
      hash.abandon();
      // The worker may still be writing to the file: its descriptor is closed only once the worker let go.
      await hash.released;
      if (stillOpen) await file.close().catch(() => {});
      await rm(tmp, { force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") throw new StorageFullError();
      throw error;
    }
  }

  /**
   * Streams `source` into a temporary file, fsyncs it and renames it to its key: the bytes' sha256, or `key`
   * when the caller addresses the content itself (putKeyed: nothing is hashed then).
   */
  async function store(
    source: AsyncIterable<Uint8Array>,
    expected: ExpectedBlob,
    key: string | undefined,
  ): Promise<BlobInfo> {
    if (key === undefined && (expected.size ?? 0) >= OFF_THREAD_HASH_BYTES) {
      return storeOffThread(source, expected);
    }
    const tmp = join(tmpDir, randomBytes(12).toString("hex"));
    const hash = key !== undefined ? undefined : inThreadHash();
    let size = 0;
    const sink = createWriteStream(tmp, { highWaterMark: 1 << 20 });
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            const behind = hash?.update(chunk);
            if (behind) await behind;
            size += chunk.byteLength;
            // Stop early on an over-long body: no need to write what will be refused.
            if (expected.size !== undefined && size > expected.size) break;
            yield chunk;
          }
        },
        sink,
      );
      // The worker finishes the hash while the file is synced.
      const digesting = hash?.digest();
      digesting?.catch(() => {});
      // The bytes must be on disk before the rename makes them visible under their final name.
      const handle = await open(tmp, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      return await placed(tmp, checked(expected, { sha256: key ?? ((await digesting) as string), size }));
    } catch (error) {
      hash?.abandon();
      // pipeline() rejects without waiting for the file to close, or even to open: removed before it
      // opens, the file would stay behind.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
      await rm(tmp, { force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") throw new StorageFullError();
      throw error;
    }
  }

  return {
    put(source: AsyncIterable<Uint8Array>, expected: ExpectedBlob = {}): Promise<BlobInfo> {
      return store(source, expected, undefined);
    },

    async putKeyed(
      key: string,
      source: AsyncIterable<Uint8Array>,
      expected: { size?: number } = {},
    ): Promise<BlobInfo> {
      assertBlobKey(key);
      return store(source, { size: expected.size }, key);
    },

    async adopt(path: string, expected: ExpectedBlob = {}, options: AdoptOptions = {}): Promise<BlobInfo> {
      const actual = checked(
        expected,
        options.hashedByCaller ? await hashedByCaller(path, expected) : await hashOfFile(path, expected),
      );
      const final = pathOf(actual.sha256);
      if (await refreshedIfStored(actual.sha256)) return actual;
      await mkdir(join(final, ".."), { recursive: true });
      try {
        await syncFile(path);
        await rename(path, final);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        // On another disk: copied into this store's tmp directory first, so the final name appears whole.
        const staged = join(tmpDir, randomBytes(12).toString("hex"));
        try {
          await copyFile(path, staged);
          await syncFile(staged);
          await rename(staged, final);
        } finally {
          await rm(staged, { force: true });
        }
      }
      return actual;
    },

    async get(sha256: string, range?: ByteRange): Promise<Readable> {
      const path = pathOf(sha256);
      if (!(await head(sha256))) throw new BlobNotFoundError(sha256);
      return createReadStream(path, {
        highWaterMark: 1 << 20,
        ...(range ? { start: range.start, end: range.end } : {}),
      });
    },

    async read(sha256: string, range: ByteRange): Promise<Buffer> {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(pathOf(sha256), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BlobNotFoundError(sha256);
        throw error;
      }
      try {
        const buffer = Buffer.alloc(Math.max(0, range.end - range.start + 1));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, range.start);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    head,

    relativePath(sha256: string): string {
      return relative(root, pathOf(sha256)).split(sep).join("/");
    },

    localPath(sha256: string): string {
      return pathOf(sha256);
    },

    async delete(sha256: string, options: { unlessModifiedSince?: number } = {}): Promise<void> {
      const path = pathOf(sha256);
      if (options.unlessModifiedSince === undefined) {
        await rm(path, { force: true });
        return;
      }
      // Move it aside first (atomic): a put from now on stores a fresh copy; one that refreshed it before
      // shows in its time, and then it goes back (unless such a fresh copy is there already).
      const aside = join(tmpDir, `gc-${sha256}`);
      try {
        await rename(path, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      const { mtimeMs } = await stat(aside);
      if (mtimeMs >= options.unlessModifiedSince && !(await head(sha256))) await rename(aside, path);
      else await rm(aside, { force: true });
    },

    async *list(): AsyncIterable<string> {
      for (const a of await readdir(objectsDir)) {
        for (const b of await readdir(join(objectsDir, a))) {
          for (const name of await readdir(join(objectsDir, a, b))) if (isSha256(name)) yield name;
        }
      }
    },
  };
}
