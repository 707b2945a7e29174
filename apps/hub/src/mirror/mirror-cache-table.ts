import type { Queryable } from "../store/database.js";

/**
 * The mirror cache's queries (mirror-cache.ts): how much mirrored content is kept, which of it may go (least
 * recently read first), and the releasing of one content. "Local" below means a repository that is not a
 * mirror (`repos.mirror_of IS NULL`): content such a repository references is its own, never the cache's to
 * evict, even when the mirror fetched it first (a local commit may claim it: content-claims.ts).
 */

/** Stored mirrored content, as eviction sees it. */
export interface CachedContent {
  sha256: string;
  size: number;
  /** Upstream's Xet hash: the content was kept in the local Xet store, not as a blob. */
  xetHash: string | undefined;
  /** When it was last read (or fetched): least recent goes first. */
  lastReadAt: string | undefined;
}

/**
 * Mirrored content referenced by no local repository (its history, an upload of it, a Xet file it registered)
 * nor by a storage bucket (a file copied from the mirrored repository: buckets/).
 */
const NOT_LOCAL = `NOT EXISTS (
    SELECT 1 FROM repo_contents c JOIN repos r ON r.id = c.repo_id
    WHERE c.sha256 = m.sha256 AND r.mirror_of IS NULL)
  AND NOT EXISTS (
    SELECT 1 FROM lfs_objects o JOIN repos r ON r.id = o.repo_id
    WHERE o.sha256 = m.sha256 AND r.mirror_of IS NULL)
  AND NOT EXISTS (
    SELECT 1 FROM xet_files f JOIN xet_file_repos fr ON fr.file_hash = f.hash JOIN repos r ON r.id = fr.repo_id
    WHERE f.sha256 = m.sha256 AND r.mirror_of IS NULL)
  AND NOT EXISTS (
    SELECT 1 FROM xet_files f JOIN bucket_files b ON b.xet_hash = f.hash WHERE f.sha256 = m.sha256)`;

interface CachedRow {
  sha256: string;
  size: number | string;
  xet_hash: string | null;
  last_read_at: string | null;
}

const cachedFromRow = (row: CachedRow): CachedContent => ({
  sha256: row.sha256,
  size: Number(row.size),
  xetHash: row.xet_hash ?? undefined,
  lastReadAt: row.last_read_at ?? undefined,
});

export function createMirrorCacheTable(q: Queryable) {
  return {
    /** Bytes and count of stored mirrored content, and how many contents are declared (stored or not). */
    async cacheTotals(): Promise<{ storedBytes: number; storedFiles: number; declaredFiles: number }> {
      const row = await q.get<{
        bytes: number | string | null;
        stored: number | string;
        declared: number | string;
      }>(
        `SELECT sum(CASE WHEN stored = 1 THEN size ELSE 0 END) AS bytes,
                sum(CASE WHEN stored = 1 THEN 1 ELSE 0 END) AS stored, count(*) AS declared
         FROM mirror_contents`,
      );
      return {
        storedBytes: Number(row?.bytes ?? 0),
        storedFiles: Number(row?.stored ?? 0),
        declaredFiles: Number(row?.declared ?? 0),
      };
    },

    /**
     * Stored content no local repository references, least recently read first (never-read content by when
     * it was fetched); `limit` at a time. A page is re-read after each round of evictions, so it needs no
     * cursor: what was evicted is no longer `stored`, what was skipped (being read) is passed with `skip`.
     */
    async evictionCandidates(limit: number, skip: readonly string[] = []): Promise<CachedContent[]> {
      const skipped = skip.length > 0 ? `AND m.sha256 NOT IN (${skip.map(() => "?").join(", ")})` : "";
      const rows = await q.all<CachedRow>(
        `SELECT m.sha256, m.size, m.xet_hash, coalesce(m.last_read_at, m.fetched_at) AS last_read_at
         FROM mirror_contents m
         WHERE m.stored = 1 AND ${NOT_LOCAL} ${skipped}
         ORDER BY coalesce(m.last_read_at, m.fetched_at, '') ASC, m.sha256 ASC
         LIMIT ?`,
        [...skip, limit],
      );
      return rows.map(cachedFromRow);
    },

    /** Stored content of one mirrored repository's history that no local repository references. */
    async repoCachedContents(repoKey: number): Promise<CachedContent[]> {
      const rows = await q.all<CachedRow>(
        `SELECT m.sha256, m.size, m.xet_hash, coalesce(m.last_read_at, m.fetched_at) AS last_read_at
         FROM mirror_contents m
         WHERE m.stored = 1 AND ${NOT_LOCAL}
           AND EXISTS (SELECT 1 FROM repo_contents rc WHERE rc.repo_id = ? AND rc.sha256 = m.sha256 AND rc.lfs = 1)
         ORDER BY m.sha256`,
        [repoKey],
      );
      return rows.map(cachedFromRow);
    },

    /** The keys of every mirrored repository, by type and id. */
    async mirroredRepoKeys(): Promise<number[]> {
      const rows = await q.all<{ id: number | string }>(
        "SELECT id FROM repos WHERE mirror_of IS NOT NULL ORDER BY type, name",
      );
      return rows.map((row) => Number(row.id));
    },

    /** Bytes of stored mirrored content per mirrored repository (a content shared by two counts for both). */
    async cachedBytesByRepo(): Promise<Map<number, { bytes: number; files: number }>> {
      const rows = await q.all<{ repo_id: number | string; bytes: number | string; files: number | string }>(
        `SELECT rc.repo_id, sum(m.size) AS bytes, count(*) AS files
         FROM repo_contents rc JOIN mirror_contents m ON m.sha256 = rc.sha256
         WHERE rc.lfs = 1 AND m.stored = 1
         GROUP BY rc.repo_id`,
      );
      return new Map(
        rows.map((row) => [Number(row.repo_id), { bytes: Number(row.bytes), files: Number(row.files) }]),
      );
    },

    /**
     * Marks one content evicted, if it is stored and still referenced by no local repository (checked in the
     * same statement, so a local commit claiming it meanwhile keeps it). True when this call released it.
     */
    async releaseContent(sha256: string): Promise<boolean> {
      return (
        (await q.run(
          `UPDATE mirror_contents SET stored = 0, fetched_at = NULL
           WHERE sha256 = ? AND stored = 1 AND ${NOT_LOCAL.replaceAll("m.sha256", "mirror_contents.sha256")}`,
          [sha256],
        )) > 0
      );
    },

    /**
     * Drops the local Xet file registrations of released content (files only mirrored repositories
     * registered); their xorbs are then used by no file and Xet garbage collection (xet-gc.ts) reclaims
     * them after its grace period, while xorbs other files share (an older revision's unchanged chunks)
     * stay. The upstream-chunk map rows pointing at chunks no stored xorb holds any more go too, so a later
     * pull fetches those chunks again instead of trusting a map to nothing.
     */
    async dropXetRegistrations(sha256: string): Promise<number> {
      return q.run(
        `DELETE FROM xet_files WHERE sha256 = ? AND NOT EXISTS (
           SELECT 1 FROM xet_file_repos fr JOIN repos r ON r.id = fr.repo_id
           WHERE fr.file_hash = xet_files.hash AND r.mirror_of IS NULL)
         AND NOT EXISTS (SELECT 1 FROM bucket_files b WHERE b.xet_hash = xet_files.hash)`,
        [sha256],
      );
    },

    /** Forgets upstream chunk mappings whose local chunk is stored in no (unmarked) xorb any more. */
    async pruneXorbChunkMap(): Promise<number> {
      return q.run(
        `DELETE FROM mirror_xorb_chunks WHERE NOT EXISTS (
           SELECT 1 FROM xet_chunks c JOIN xet_xorbs x ON x.hash = c.xorb_hash
           WHERE c.chunk_hash = mirror_xorb_chunks.chunk_hash AND x.deleting_since IS NULL)`,
      );
    },
  };
}

export type MirrorCacheTable = ReturnType<typeof createMirrorCacheTable>;
