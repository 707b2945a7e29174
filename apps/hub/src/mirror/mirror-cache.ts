import type { BlobStore } from "../storage/blob-store.js";
import type { CachedContent, MirrorCacheTable } from "./mirror-cache-table.js";

/**
 * The mirror's cache of upstream content, held to MIRROR_MAX_CACHE_SIZE: least recently read content goes
 * first, never content being read, never content a local repository references. Evicting keeps every row of
 * the mirrored repositories (their commits and trees): only the bytes go, and the next read fetches them
 * from upstream again (pull-through) or says they are not cached (offline).
 *
 * Where the bytes are decides how they go: content fetched as plain bytes is a blob (deleted here); content
 * upstream served in Xet lives as chunks in the local Xet store, shared with other files (the previous
 * revision of the same model, mostly), so deleting chunks here would break those. Instead its local Xet file
 * registration is dropped, and Xet garbage collection (lfs-xet/xet-gc.ts) reclaims the xorbs no file uses
 * any more after its grace period — the same path, and the same race guards, as for any local file.
 */

export interface MirrorCacheOptions {
  table: MirrorCacheTable;
  blobs: BlobStore;
  /** Bytes of mirrored content kept; undefined: no cap (only explicit evictions). */
  maxBytes: number | undefined;
  /** True while the content is being transferred or served: it is left alone. */
  isReading: (sha256: string) => boolean;
  /** Told about each evicted content (metrics, logs). */
  observe?: (event: { sha256: string; size: number }) => void;
}

export interface EvictionReport {
  evictedFiles: number;
  evictedBytes: number;
  /** Left because they were being read. */
  skippedReading: number;
  /** Stored bytes of mirrored content after the run. */
  storedBytes: number;
}

const PAGE = 100;

export function createMirrorCache(options: MirrorCacheOptions) {
  const { table, blobs } = options;
  let running: Promise<EvictionReport> | undefined;

  /** Releases one content; false when it was being read, no longer stored or referenced locally now. */
  async function evict(content: CachedContent): Promise<boolean> {
    if (options.isReading(content.sha256)) return false;
    // The row first: from here on a reader finds it not stored and fetches again instead of opening bytes
    // that are about to go. A reader that opened the blob just before keeps reading it (an open file
    // survives its unlink; an object store finishes a GET it began).
    if (!(await table.releaseContent(content.sha256))) return false;
    if (content.xetHash !== undefined) await table.dropXetRegistrations(content.sha256);
    // A Xet pull may also have put the plain bytes (a fallback to a plain download): remove them either way.
    await blobs.delete(content.sha256);
    options.observe?.({ sha256: content.sha256, size: content.size });
    return true;
  }

  async function evictAll(contents: readonly CachedContent[]): Promise<EvictionReport> {
    let evictedFiles = 0;
    let evictedBytes = 0;
    let skippedReading = 0;
    for (const content of contents) {
      if (await evict(content)) {
        evictedFiles++;
        evictedBytes += content.size;
      } else if (options.isReading(content.sha256)) {
        skippedReading++;
      }
    }
    await table.pruneXorbChunkMap();
    return {
      evictedFiles,
      evictedBytes,
      skippedReading,
      storedBytes: (await table.cacheTotals()).storedBytes,
    };
  }

  /** Evicts least recently read content until at most `target` bytes are stored (or nothing more may go). */
  async function evictDownTo(target: number): Promise<EvictionReport> {
    const report: EvictionReport = { evictedFiles: 0, evictedBytes: 0, skippedReading: 0, storedBytes: 0 };
    let stored = (await table.cacheTotals()).storedBytes;
    const skipped: string[] = [];
    while (stored > target) {
      const page = await table.evictionCandidates(PAGE, skipped);
      if (page.length === 0) break;
      for (const content of page) {
        if (stored <= target) break;
        if (await evict(content)) {
          report.evictedFiles++;
          report.evictedBytes += content.size;
          stored -= content.size;
        } else {
          if (options.isReading(content.sha256)) report.skippedReading++;
          skipped.push(content.sha256);
        }
      }
    }
    if (report.evictedFiles > 0) await table.pruneXorbChunkMap();
    report.storedBytes = (await table.cacheTotals()).storedBytes;
    return report;
  }

  /** One eviction run at a time: overlapping runs would each evict for the same overflow. */
  async function serialized(run: () => Promise<EvictionReport>): Promise<EvictionReport> {
    while (running) await running.catch(() => undefined);
    running = run();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  return {
    maxBytes: options.maxBytes,

    /**
     * Evicts least recently read content until the cache holds at most MIRROR_MAX_CACHE_SIZE minus
     * `incoming` bytes (room for a file about to be fetched). Runs one at a time: a call while a run is
     * under way waits for it, then sees its result.
     */
    async enforce(incoming = 0): Promise<EvictionReport> {
      const cap = options.maxBytes;
      if (cap === undefined) {
        const storedBytes = (await table.cacheTotals()).storedBytes;
        return { evictedFiles: 0, evictedBytes: 0, skippedReading: 0, storedBytes };
      }
      return serialized(() => evictDownTo(Math.max(0, cap - incoming)));
    },

    /** Evicts every cached content of one mirrored repository (`mirror:evict <id>`). */
    async evictRepo(repoKey: number): Promise<EvictionReport> {
      return serialized(async () => evictAll(await table.repoCachedContents(repoKey)));
    },

    /** Evicts all mirrored content not being read and not referenced locally (`mirror:evict --all`). */
    async evictEverything(): Promise<EvictionReport> {
      return serialized(() => evictDownTo(0));
    },

    async totals() {
      return table.cacheTotals();
    },
  };
}

export type MirrorCache = ReturnType<typeof createMirrorCache>;

/**
 * Counts the reads in progress of each content, for the cache's `isReading`: the content pull knows its
 * transfers, but a stored file served to a slow client is being read too. `track` returns the release.
 */
export function createReadTracker() {
  const readers = new Map<string, number>();
  return {
    track(sha256: string): () => void {
      readers.set(sha256, (readers.get(sha256) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (readers.get(sha256) ?? 1) - 1;
        if (left <= 0) readers.delete(sha256);
        else readers.set(sha256, left);
      };
    },
    isReading(sha256: string): boolean {
      return readers.has(sha256);
    },
  };
}

export type ReadTracker = ReturnType<typeof createReadTracker>;
