import type { Queryable } from "../store/database.js";
import { createMirrorCacheTable } from "./mirror-cache-table.js";

/**
 * The mirror's own rows (migration 22; docs/decisions/mirror.md): when each branch or tag name of a mirrored
 * repository was last resolved upstream (`mirror_refs`), and the LFS content upstream declared for mirrored
 * repositories (`mirror_contents`: size, Xet hash, whether it is fetched and verified yet). The repositories,
 * commits and refs themselves are ordinary rows of the repos domain.
 */

/** LFS content upstream declared, as the mirror keeps it. */
export interface MirrorContent {
  sha256: string;
  size: number;
  /** Upstream's Xet file hash, when upstream stores the file in Xet. */
  xetHash: string | undefined;
  /** Fetched from upstream and verified (in the blob store or the local Xet store). */
  stored: boolean;
  fetchedAt: string | undefined;
  lastReadAt: string | undefined;
}

interface ContentRow {
  sha256: string;
  size: number | string;
  xet_hash: string | null;
  stored: number | string;
  fetched_at: string | null;
  last_read_at: string | null;
}

const contentFromRow = (row: ContentRow): MirrorContent => ({
  sha256: row.sha256,
  size: Number(row.size),
  xetHash: row.xet_hash ?? undefined,
  stored: Number(row.stored) === 1,
  fetchedAt: row.fetched_at ?? undefined,
  lastReadAt: row.last_read_at ?? undefined,
});

export function createMirrorTable(q: Queryable) {
  return {
    /** The cache's totals and eviction queries (mirror-cache-table.ts). */
    ...createMirrorCacheTable(q),
    /** When `name` (a full ref name: refs/heads/main) of a mirrored repository was last resolved upstream. */
    async refCheckedAt(repoKey: number, name: string): Promise<string | undefined> {
      const row = await q.get<{ checked_at: string }>(
        "SELECT checked_at FROM mirror_refs WHERE repo_id = ? AND name = ?",
        [repoKey, name],
      );
      return row?.checked_at;
    },
    /** Records that `name` was resolved upstream at `now`. */
    async markRefChecked(repoKey: number, name: string, now: string): Promise<void> {
      await q.run(
        `INSERT INTO mirror_refs (repo_id, name, checked_at) VALUES (?, ?, ?)
         ON CONFLICT (repo_id, name) DO UPDATE SET checked_at = excluded.checked_at`,
        [repoKey, name, now],
      );
    },
    /** Forgets a name upstream no longer has. */
    async forgetRef(repoKey: number, name: string): Promise<void> {
      await q.run("DELETE FROM mirror_refs WHERE repo_id = ? AND name = ?", [repoKey, name]);
    },

    /**
     * Records LFS content upstream declared (insert if absent; a Xet hash learnt later is added). Its size is
     * upstream's word, checked when the content is fetched.
     */
    async declareContent(content: { sha256: string; size: number; xetHash?: string }): Promise<void> {
      await q.run(
        `INSERT INTO mirror_contents (sha256, size, xet_hash, stored) VALUES (?, ?, ?, 0)
         ON CONFLICT (sha256) DO UPDATE SET xet_hash = coalesce(mirror_contents.xet_hash, excluded.xet_hash)`,
        [content.sha256, content.size, content.xetHash ?? null],
      );
    },
    async content(sha256: string): Promise<MirrorContent | undefined> {
      const row = await q.get<ContentRow>("SELECT * FROM mirror_contents WHERE sha256 = ?", [sha256]);
      return row ? contentFromRow(row) : undefined;
    },
    /** Marks content fetched and verified. */
    async markStored(sha256: string, now: string): Promise<void> {
      await q.run(
        "UPDATE mirror_contents SET stored = 1, fetched_at = ?, last_read_at = ? WHERE sha256 = ?",
        [now, now, sha256],
      );
    },
    /** Marks content gone from the local stores (evicted): the next read fetches it again. */
    async markEvicted(sha256: string): Promise<void> {
      await q.run("UPDATE mirror_contents SET stored = 0, fetched_at = NULL WHERE sha256 = ?", [sha256]);
    },
    /** Records a read of stored content (least recently read is evicted first). */
    async touchContent(sha256: string, now: string): Promise<void> {
      await q.run("UPDATE mirror_contents SET last_read_at = ? WHERE sha256 = ?", [now, sha256]);
    },

    /**
     * The local chunk hash of each chunk `[start, end)` of an upstream xorb that an earlier pull fetched
     * and verified (index -> chunk hash): a new revision's pull fetches only the others.
     */
    async xorbChunks(upstreamXorb: string, start: number, end: number): Promise<Map<number, string>> {
      const rows = await q.all<{ chunk_index: number | string; chunk_hash: string }>(
        `SELECT chunk_index, chunk_hash FROM mirror_xorb_chunks
         WHERE upstream_xorb = ? AND chunk_index >= ? AND chunk_index < ?`,
        [upstreamXorb, start, end],
      );
      return new Map(rows.map((row) => [Number(row.chunk_index), row.chunk_hash]));
    },
    /** Records which chunk hash upstream xorb chunks hold (after their file verified). */
    async addXorbChunks(
      rows: ReadonlyArray<{ upstreamXorb: string; index: number; chunkHash: string }>,
    ): Promise<void> {
      await q.transaction(async (tx) => {
        for (let at = 0; at < rows.length; at += 300) {
          const batch = rows.slice(at, at + 300);
          await tx.run(
            `INSERT INTO mirror_xorb_chunks (upstream_xorb, chunk_index, chunk_hash)
             VALUES ${batch.map(() => "(?, ?, ?)").join(", ")} ON CONFLICT DO NOTHING`,
            batch.flatMap((row) => [row.upstreamXorb, row.index, row.chunkHash]),
          );
        }
      });
    },
  };
}

export type MirrorTable = ReturnType<typeof createMirrorTable>;
