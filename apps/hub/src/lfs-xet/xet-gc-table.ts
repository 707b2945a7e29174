import type { Queryable } from "../store/database.js";
import type { XetFileRow } from "./xet-table.js";

/** Where a stored xorb is in its life: in use (or merely unused so far), marked for collection, or claimed. */
export type XorbState = "kept" | "marked" | "claimed";

/** A shard names a xorb that is not stored (never uploaded, or collected). */
export class XorbNotStoredError extends Error {
  constructor(readonly xorb: string) {
    super(`Xorb ${xorb} is not stored: upload it again.`);
    this.name = "XorbNotStoredError";
  }
}

/** A claimed xorb: its blob is being deleted. */
export interface ClaimedXorb {
  hash: string;
  blobSha256: string;
  size: number;
}

const CLAIM_PREFIX = "~";

/** `terms LIKE` pattern of the files whose reconstruction uses `xorb` (terms are JSON: `"xorb":"<hash>"`). */
const usesXorb = (xorb: string) => `%"xorb":"${xorb}"%`;

/**
 * The queries of Xet garbage collection and of the uploads that must not race it (see migration 10). Every
 * decision is re-checked in the statement that acts on it, so several hubs may collect at once and an upload
 * landing meanwhile is never lost: it either clears a mark first, or finds the xorb gone and is refused.
 * Methods are async (the store rule); the SQL runs on SQLite and PostgreSQL alike.
 */
export function createXetGcTable(q: Queryable, now: () => Date) {
  const state = (tx: Queryable, hash: string) =>
    tx.get<{ deleting_since: string | null }>("SELECT deleting_since FROM xet_xorbs WHERE hash = ?", [hash]);
  const unmark = (tx: Queryable, hash: string) =>
    tx.run(
      "UPDATE xet_xorbs SET deleting_since = NULL WHERE hash = ? AND deleting_since IS NOT NULL AND deleting_since NOT LIKE '~%'",
      [hash],
    );
  // A file is in use when some repository's history holds its sha256 as an LFS file: not only the ones that
  // registered it, since a commit may name content claimed from a repository it may read (content-claims.ts)
  // and /resolve then serves it from this file.
  // A file a storage bucket holds (buckets/) is in use as much as one a commit names.
  const UNCOMMITTED = `created_at < ? AND NOT EXISTS (
      SELECT 1 FROM repo_contents c WHERE c.sha256 = xet_files.sha256 AND c.lfs = 1)
    AND NOT EXISTS (SELECT 1 FROM bucket_files b WHERE b.xet_hash = xet_files.hash)`;

  return {
    async xorbState(hash: string): Promise<XorbState | undefined> {
      const row = await state(q, hash);
      if (!row) return undefined;
      if (row.deleting_since === null) return "kept";
      return row.deleting_since.startsWith(CLAIM_PREFIX) ? "claimed" : "marked";
    },

    /** Clears a xorb's mark (an upload needs it again); false when it is absent or already claimed. */
    async keepXorb(hash: string): Promise<boolean> {
      return q.transaction(async (tx) => {
        await unmark(tx, hash);
        return (await state(tx, hash))?.deleting_since === null;
      });
    },

    /**
     * Registers files for a repository, all or none, after checking in the same transaction that every xorb
     * they use is stored and not claimed (a marked one is kept again). Throws XorbNotStoredError otherwise.
     * Each file's sha256 must be the one the caller hashed from its reconstructed bytes (cas-service.ts): it is
     * recorded as checked, and completes a row registered before sha256s were checked.
     */
    async registerFiles(files: readonly XetFileRow[], repoKey: number | undefined): Promise<void> {
      const createdAt = now().toISOString();
      await q.transaction(async (tx) => {
        for (const file of files) {
          for (const term of file.terms) {
            await unmark(tx, term.xorb);
            if ((await state(tx, term.xorb))?.deleting_since !== null)
              throw new XorbNotStoredError(term.xorb);
          }
          await tx.run(
            `INSERT INTO xet_files (hash, sha256, sha256_checked, size, terms, created_at) VALUES (?, ?, 1, ?, ?, ?)
             ON CONFLICT (hash) DO UPDATE SET sha256 = excluded.sha256, sha256_checked = 1
             WHERE xet_files.sha256_checked = 0`,
            [file.hash, file.sha256 ?? null, file.size, JSON.stringify(file.terms), createdAt],
          );
          if (repoKey === undefined) continue;
          await tx.run(
            "INSERT INTO xet_file_repos (file_hash, repo_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [file.hash, repoKey],
          );
        }
      });
    },

    /**
     * Unregisters from one repository the Xet files holding these contents (permanently deleted LFS files:
     * repos/lfs-files.ts), so that its Xet tokens no longer reconstruct them; the files themselves go with
     * the next collection once no repository's history holds their content.
     */
    async forgetRepoFiles(repoKey: number, sha256s: readonly string[]): Promise<void> {
      if (sha256s.length === 0) return;
      await q.run(
        `DELETE FROM xet_file_repos WHERE repo_id = ? AND file_hash IN (
           SELECT hash FROM xet_files WHERE sha256 IN (${sha256s.map(() => "?").join(", ")}))`,
        [repoKey, ...sha256s],
      );
    },

    /** Deletes files registered before `before` that no commit uses; their hashes. */
    async deleteUncommittedFiles(before: Date): Promise<string[]> {
      const cutoff = before.toISOString();
      const deleted: string[] = [];
      const candidates = await q.all<{ hash: string }>(`SELECT hash FROM xet_files WHERE ${UNCOMMITTED}`, [
        cutoff,
      ]);
      for (const { hash } of candidates) {
        if ((await q.run(`DELETE FROM xet_files WHERE hash = ? AND ${UNCOMMITTED}`, [hash, cutoff])) > 0) {
          deleted.push(hash);
        }
      }
      return deleted;
    },

    /** Marks (as of `at`) xorbs stored before `before` that no file uses; their hashes. */
    async markUnusedXorbs(before: Date, at: Date): Promise<string[]> {
      const cutoff = before.toISOString();
      const used = new Set<string>();
      for (const row of await q.all<{ terms: string }>("SELECT terms FROM xet_files")) {
        for (const term of JSON.parse(row.terms) as Array<{ xorb: string }>) used.add(term.xorb);
      }
      const marked: string[] = [];
      const markTime = at.toISOString();
      const old = await q.all<{ hash: string }>(
        "SELECT hash FROM xet_xorbs WHERE deleting_since IS NULL AND created_at < ?",
        [cutoff],
      );
      for (const { hash } of old) {
        if (used.has(hash)) continue;
        const changed = await q.run(
          `UPDATE xet_xorbs SET deleting_since = ? WHERE hash = ? AND deleting_since IS NULL AND created_at < ?
           AND NOT EXISTS (SELECT 1 FROM xet_files WHERE terms LIKE ?)`,
          [markTime, hash, cutoff, usesXorb(hash)],
        );
        if (changed > 0) marked.push(hash);
      }
      return marked;
    },

    /**
     * Claims (as of `at`) xorbs marked before `markedBefore` that still no file uses (and claims left by
     * a collector that stopped before `claimedBefore`). A claimed xorb can no longer be kept: its blob may be deleted.
     */
    async claimMarkedXorbs(markedBefore: Date, claimedBefore: Date, at: Date): Promise<ClaimedXorb[]> {
      const marked = markedBefore.toISOString();
      const stale = `${CLAIM_PREFIX}${claimedBefore.toISOString()}`;
      const claimTime = `${CLAIM_PREFIX}${at.toISOString()}`;
      const out: ClaimedXorb[] = [];
      const claimable = await q.all<{ hash: string }>(
        `SELECT hash FROM xet_xorbs WHERE (deleting_since IS NOT NULL AND deleting_since NOT LIKE '~%'
         AND deleting_since < ?) OR (deleting_since LIKE '~%' AND deleting_since < ?)`,
        [marked, stale],
      );
      for (const { hash } of claimable) {
        const changed = await q.run(
          `UPDATE xet_xorbs SET deleting_since = ? WHERE hash = ?
           AND ((deleting_since NOT LIKE '~%' AND deleting_since < ?) OR (deleting_since LIKE '~%' AND deleting_since < ?))
           AND NOT EXISTS (SELECT 1 FROM xet_files WHERE terms LIKE ?)`,
          [claimTime, hash, marked, stale, usesXorb(hash)],
        );
        if (changed === 0) continue;
        const row = await q.get<{ blob_sha256: string; size: number }>(
          "SELECT blob_sha256, size FROM xet_xorbs WHERE hash = ?",
          [hash],
        );
        if (row) out.push({ hash, blobSha256: row.blob_sha256, size: row.size });
      }
      return out;
    },

    /** Whether a blob holds anything besides this claimed xorb (another xorb row, or a git/LFS blob). */
    async blobUsedElsewhere(blobSha256: string, xorb: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        `SELECT (SELECT count(*) FROM xet_xorbs WHERE blob_sha256 = ? AND hash <> ?)
              + (SELECT count(*) FROM repo_contents WHERE sha256 = ?) AS n`,
        [blobSha256, xorb, blobSha256],
      );
      return (row?.n ?? 0) > 0;
    },

    /** Removes a claimed xorb's row (and its chunks) once its blob is gone. */
    async deleteClaimedXorb(hash: string): Promise<void> {
      await q.run("DELETE FROM xet_xorbs WHERE hash = ? AND deleting_since LIKE '~%'", [hash]);
    },
  };
}

export type XetGcTable = ReturnType<typeof createXetGcTable>;
