import type Database from "better-sqlite3";
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
export function createXetGcTable(db: Database.Database, now: () => Date) {
  const state = db.prepare<[string], { deleting_since: string | null }>(
    "SELECT deleting_since FROM xet_xorbs WHERE hash = ?",
  );
  const unmark = db.prepare<[string]>(
    "UPDATE xet_xorbs SET deleting_since = NULL WHERE hash = ? AND deleting_since IS NOT NULL AND deleting_since NOT LIKE '~%'",
  );
  const insertFile = db.prepare<[string, string | null, number, string, string]>(
    `INSERT INTO xet_files (hash, sha256, size, terms, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (hash) DO NOTHING`,
  );
  const grant = db.prepare<[string, number]>(
    "INSERT INTO xet_file_repos (file_hash, repo_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
  );
  // A file is in use when a repository that registered it has its sha256 as an LFS file in some commit.
  const UNCOMMITTED = `created_at < ? AND NOT EXISTS (
      SELECT 1 FROM xet_file_repos r
      JOIN git_blobs b ON b.sha256 = xet_files.sha256 AND b.lfs = 1
      JOIN commit_files cf ON cf.repo_id = r.repo_id AND cf.blob_oid = b.oid
      WHERE r.file_hash = xet_files.hash)`;
  const uncommittedFiles = db.prepare<[string], { hash: string }>(
    `SELECT hash FROM xet_files WHERE ${UNCOMMITTED}`,
  );
  const deleteUncommittedFile = db.prepare<[string, string]>(
    `DELETE FROM xet_files WHERE hash = ? AND ${UNCOMMITTED}`,
  );
  const allTerms = db.prepare<[], { terms: string }>("SELECT terms FROM xet_files");
  const oldUnmarked = db.prepare<[string], { hash: string }>(
    "SELECT hash FROM xet_xorbs WHERE deleting_since IS NULL AND created_at < ?",
  );
  const mark = db.prepare<[string, string, string, string]>(
    `UPDATE xet_xorbs SET deleting_since = ? WHERE hash = ? AND deleting_since IS NULL AND created_at < ?
     AND NOT EXISTS (SELECT 1 FROM xet_files WHERE terms LIKE ?)`,
  );
  const claimable = db.prepare<[string, string], { hash: string }>(
    `SELECT hash FROM xet_xorbs WHERE (deleting_since IS NOT NULL AND deleting_since NOT LIKE '~%'
     AND deleting_since < ?) OR (deleting_since LIKE '~%' AND deleting_since < ?)`,
  );
  const claim = db.prepare<[string, string, string, string, string]>(
    `UPDATE xet_xorbs SET deleting_since = ? WHERE hash = ?
     AND ((deleting_since NOT LIKE '~%' AND deleting_since < ?) OR (deleting_since LIKE '~%' AND deleting_since < ?))
     AND NOT EXISTS (SELECT 1 FROM xet_files WHERE terms LIKE ?)`,
  );
  const claimed = db.prepare<[string], { blob_sha256: string; size: number }>(
    "SELECT blob_sha256, size FROM xet_xorbs WHERE hash = ?",
  );
  const otherUsers = db.prepare<[string, string, string], { n: number }>(
    `SELECT (SELECT count(*) FROM xet_xorbs WHERE blob_sha256 = ? AND hash <> ?)
          + (SELECT count(*) FROM git_blobs WHERE sha256 = ?) AS n`,
  );
  const deleteXorb = db.prepare<[string]>(
    "DELETE FROM xet_xorbs WHERE hash = ? AND deleting_since LIKE '~%'",
  );

  return {
    async xorbState(hash: string): Promise<XorbState | undefined> {
      const row = state.get(hash);
      if (!row) return undefined;
      if (row.deleting_since === null) return "kept";
      return row.deleting_since.startsWith(CLAIM_PREFIX) ? "claimed" : "marked";
    },

    /** Clears a xorb's mark (an upload needs it again); false when it is absent or already claimed. */
    async keepXorb(hash: string): Promise<boolean> {
      return db.transaction(() => {
        unmark.run(hash);
        return state.get(hash)?.deleting_since === null;
      })();
    },

    /**
     * Registers files for a repository, all or none, after checking in the same transaction that every xorb
     * they use is stored and not claimed (a marked one is kept again). Throws XorbNotStoredError otherwise.
     */
    async registerFiles(files: readonly XetFileRow[], repoKey: number): Promise<void> {
      const createdAt = now().toISOString();
      db.transaction(() => {
        for (const file of files) {
          for (const term of file.terms) {
            unmark.run(term.xorb);
            if (state.get(term.xorb)?.deleting_since !== null) throw new XorbNotStoredError(term.xorb);
          }
          insertFile.run(file.hash, file.sha256 ?? null, file.size, JSON.stringify(file.terms), createdAt);
          grant.run(file.hash, repoKey);
        }
      })();
    },

    /** Deletes files registered before `before` that no commit uses; their hashes. */
    async deleteUncommittedFiles(before: Date): Promise<string[]> {
      const cutoff = before.toISOString();
      const deleted: string[] = [];
      for (const { hash } of uncommittedFiles.all(cutoff)) {
        if (deleteUncommittedFile.run(hash, cutoff).changes > 0) deleted.push(hash);
      }
      return deleted;
    },

    /** Marks (as of `at`) xorbs stored before `before` that no file uses; their hashes. */
    async markUnusedXorbs(before: Date, at: Date): Promise<string[]> {
      const cutoff = before.toISOString();
      const used = new Set<string>();
      for (const row of allTerms.iterate()) {
        for (const term of JSON.parse(row.terms) as Array<{ xorb: string }>) used.add(term.xorb);
      }
      const marked: string[] = [];
      const markTime = at.toISOString();
      for (const { hash } of oldUnmarked.all(cutoff)) {
        if (used.has(hash)) continue;
        if (mark.run(markTime, hash, cutoff, usesXorb(hash)).changes > 0) marked.push(hash);
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
      for (const { hash } of claimable.all(marked, stale)) {
        if (claim.run(claimTime, hash, marked, stale, usesXorb(hash)).changes === 0) continue;
        const row = claimed.get(hash);
        if (row) out.push({ hash, blobSha256: row.blob_sha256, size: row.size });
      }
      return out;
    },

    /** Whether a blob holds anything besides this claimed xorb (another xorb row, or a git/LFS blob). */
    async blobUsedElsewhere(blobSha256: string, xorb: string): Promise<boolean> {
      return (otherUsers.get(blobSha256, xorb, blobSha256)?.n ?? 0) > 0;
    },

    /** Removes a claimed xorb's row (and its chunks) once its blob is gone. */
    async deleteClaimedXorb(hash: string): Promise<void> {
      deleteXorb.run(hash);
    },
  };
}

export type XetGcTable = ReturnType<typeof createXetGcTable>;
