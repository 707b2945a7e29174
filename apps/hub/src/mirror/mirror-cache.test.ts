import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { collectXetGarbage } from "../lfs-xet/xet-gc.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import type { Store } from "../store/store.js";
import { createMirrorCache, createReadTracker } from "./mirror-cache.js";
import { createMirrorCacheTable, type MirrorCacheTable } from "./mirror-cache-table.js";

const temp = makeTempDir("mirror-cache-");
let store: Store;
let blobs: BlobStore;
let table: MirrorCacheTable;
let mirrorRepo: number;
let localRepo: number;
const UPSTREAM = "http://upstream.test";

beforeAll(async () => {
  store = await openTestStore({ dataDir: temp.dir });
  blobs = await createFsBlobStore(`${temp.dir}/blobs`);
  table = createMirrorCacheTable(store.db);
  const now = new Date().toISOString();
  const repo = (id: string, mirrorOf?: string) =>
    store.repos.insert({
      type: "model",
      id,
      owner: id.split("/")[0]!,
      private: false,
      gated: false,
      now,
      mirrorOf,
    });
  mirrorRepo = (await repo("up/model", UPSTREAM)).key;
  localRepo = (await repo("team/model")).key;
});
afterAll(async () => {
  await store?.close();
  temp.remove();
});
beforeEach(async () => {
  await store.db.run("DELETE FROM mirror_contents");
  await store.db.run("DELETE FROM repo_contents");
  await store.db.run("DELETE FROM xet_files");
  await store.db.run("DELETE FROM xet_xorbs");
});

let clock = 0;
/** Mirrored content stored in the blob store, read `clock` ticks after the epoch (older reads go first). */
async function cached(size: number, options: { repo?: number; readAt?: number } = {}): Promise<string> {
  const bytes = randomBytes(size);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await blobs.put(Readable.from([bytes]));
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, options.readAt ?? clock++)).toISOString();
  await store.db.run(
    "INSERT INTO mirror_contents (sha256, size, stored, fetched_at, last_read_at) VALUES (?, ?, 1, ?, ?)",
    [sha256, size, at, at],
  );
  await store.repos.recordContents(options.repo ?? mirrorRepo, [{ sha256, size, lfs: true }]);
  return sha256;
}

async function isStored(sha256: string): Promise<boolean> {
  const row = await store.db.get<{ stored: number }>("SELECT stored FROM mirror_contents WHERE sha256 = ?", [
    sha256,
  ]);
  return Number(row?.stored) === 1 && (await blobs.head(sha256)) !== undefined;
}

describe("mirror cache eviction", () => {
  it("evicts least recently read content until the cache fits, and nothing more", async () => {
    const oldest = await cached(1000);
    const middle = await cached(1000);
    const newest = await cached(1000);
    const cache = createMirrorCache({ table, blobs, maxBytes: 2500, isReading: () => false });
    const report = await cache.enforce();
    expect(report).toEqual({ evictedFiles: 1, evictedBytes: 1000, skippedReading: 0, storedBytes: 2000 });
    expect(await isStored(oldest)).toBe(false);
    expect(await isStored(middle)).toBe(true);
    expect(await isStored(newest)).toBe(true);
    // Room for a file about to be fetched.
    expect((await cache.enforce(500)).evictedFiles).toBe(0);
    expect((await cache.enforce(501)).evictedFiles).toBe(1);
    expect(await isStored(middle)).toBe(false);
    expect(await isStored(newest)).toBe(true);
  });

  it("never evicts content being read, and takes the next least recent instead", async () => {
    const reading = await cached(1000);
    const idle = await cached(1000);
    const recent = await cached(1000);
    const reads = createReadTracker();
    const release = reads.track(reading);
    const cache = createMirrorCache({ table, blobs, maxBytes: 2000, isReading: reads.isReading });
    const report = await cache.enforce();
    expect(report.skippedReading).toBe(1);
    expect(await isStored(reading)).toBe(true);
    expect(await isStored(idle)).toBe(false);
    expect(await isStored(recent)).toBe(true);
    release();
    release(); // twice is harmless
    expect(reads.isReading(reading)).toBe(false);
    await cache.enforce(1000);
    expect(await isStored(reading)).toBe(false);
  });

  it("never evicts content a local repository references, even fetched by the mirror", async () => {
    const claimed = await cached(1000);
    await store.repos.recordContents(localRepo, [{ sha256: claimed, size: 1000, lfs: true }]);
    const other = await cached(1000);
    const cache = createMirrorCache({ table, blobs, maxBytes: 0, isReading: () => false });
    const report = await cache.evictEverything();
    expect(report.evictedFiles).toBe(1);
    expect(await isStored(claimed)).toBe(true);
    expect(await isStored(other)).toBe(false);
    expect(report.storedBytes).toBe(1000);
  });

  it("keeps everything without a cap; evicts one repository's content on demand", async () => {
    const a = await cached(1000);
    const b = await cached(1000, { repo: localRepo });
    const cache = createMirrorCache({ table, blobs, maxBytes: undefined, isReading: () => false });
    expect((await cache.enforce(10 ** 12)).evictedFiles).toBe(0);
    const report = await cache.evictRepo(mirrorRepo);
    expect(report.evictedFiles).toBe(1);
    expect(await isStored(a)).toBe(false);
    expect(await isStored(b)).toBe(true);
  });

  it("drops an evicted Xet file's registration; Xet GC then marks only the xorbs no other file uses", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 60_000).toISOString();
    const sha256 = createHash("sha256").update("xet content").digest("hex");
    await store.db.run(
      "INSERT INTO mirror_contents (sha256, size, xet_hash, stored, fetched_at, last_read_at) VALUES (?, 2000, ?, 1, ?, ?)",
      [sha256, "f".repeat(64), "2025-01-01T00:00:00.000Z", "2025-01-01T00:00:00.000Z"],
    );
    await store.repos.recordContents(mirrorRepo, [{ sha256, size: 2000, lfs: true }]);
    for (const xorb of ["a", "b"]) {
      await store.db.run(
        "INSERT INTO xet_xorbs (hash, blob_sha256, size, chunk_count, created_at) VALUES (?, ?, 10, 1, ?)",
        [xorb.repeat(64), xorb.repeat(64), past],
      );
    }
    const file = (hash: string, fileSha: string, xorbs: string[]) =>
      store.db.run(
        "INSERT INTO xet_files (hash, sha256, sha256_checked, size, terms, created_at) VALUES (?, ?, 1, 0, ?, ?)",
        [hash, fileSha, JSON.stringify(xorbs.map((x) => ({ xorb: x.repeat(64) }))), past],
      );
    await file("f".repeat(64), sha256, ["a", "b"]);
    // An older revision's file, still cached, shares xorb b.
    const older = await cached(10);
    await file("e".repeat(64), older, ["b"]);
    await store.db.run("INSERT INTO xet_file_repos (file_hash, repo_id) VALUES (?, ?), (?, ?)", [
      "f".repeat(64),
      mirrorRepo,
      "e".repeat(64),
      mirrorRepo,
    ]);
    await store.db.run(
      "INSERT INTO mirror_xorb_chunks (upstream_xorb, chunk_index, chunk_hash) VALUES ('u', 0, 'gone')",
    );
    const cache = createMirrorCache({ table, blobs, maxBytes: 100, isReading: () => false });
    expect((await cache.enforce()).evictedFiles).toBe(1);
    expect(await store.db.get("SELECT 1 FROM xet_files WHERE hash = ?", ["f".repeat(64)])).toBeUndefined();
    expect(await store.db.get("SELECT 1 FROM mirror_xorb_chunks WHERE upstream_xorb = 'u'")).toBeUndefined();
    await collectXetGarbage({ gc: store.xetGc, blobs }, { now, graceMs: 1000 });
    expect(await store.xetGc.xorbState("a".repeat(64))).toBe("marked");
    expect(await store.xetGc.xorbState("b".repeat(64))).toBe("kept");
  });

  it("does not evict a local upload's Xet file of the same content", async () => {
    const sha256 = await cached(500);
    await store.db.run(
      "INSERT INTO xet_files (hash, sha256, sha256_checked, size, terms, created_at) VALUES (?, ?, 1, 500, '[]', ?)",
      ["d".repeat(64), sha256, new Date().toISOString()],
    );
    await store.db.run("INSERT INTO xet_file_repos (file_hash, repo_id) VALUES (?, ?)", [
      "d".repeat(64),
      localRepo,
    ]);
    const cache = createMirrorCache({ table, blobs, maxBytes: 0, isReading: () => false });
    expect((await cache.evictEverything()).evictedFiles).toBe(0);
    expect(await isStored(sha256)).toBe(true);
  });

  it("reports totals and bytes per mirrored repository", async () => {
    await cached(300);
    await cached(200);
    await store.db.run("INSERT INTO mirror_contents (sha256, size, stored) VALUES (?, 99, 0)", [
      "0".repeat(64),
    ]);
    expect(await table.cacheTotals()).toEqual({ storedBytes: 500, storedFiles: 2, declaredFiles: 3 });
    expect((await table.cachedBytesByRepo()).get(mirrorRepo)).toEqual({ bytes: 500, files: 2 });
  });
});
