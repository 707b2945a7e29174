import { placeholders, type Queryable } from "../store/database.js";

/**
 * Storage an owner's repositories reference (repo_contents), each distinct content counted once per owner and
 * visibility: what quotas are checked against (limits/storage-quotas.ts). Read-only SQL over the repositories'
 * tables, kept here so that the quota's meaning lives beside the quota.
 */
export function createStorageUsageTable(q: Queryable) {
  return {
    /** Bytes of distinct content in `owner`'s private and public repositories. */
    async usage(owner: string): Promise<{ private: number; public: number }> {
      const rows = await q.all<{ private: number | boolean; total: number | string | null }>(
        `SELECT private, sum(size) AS total FROM (
           SELECT DISTINCT r.private AS private, c.sha256 AS sha256, c.size AS size
           FROM repo_contents c JOIN repos r ON r.id = c.repo_id WHERE lower(r.owner) = lower(?)
         ) AS owned GROUP BY private`,
        [owner],
      );
      const usage = { private: 0, public: 0 };
      for (const row of rows) usage[Number(row.private) ? "private" : "public"] += Number(row.total ?? 0);
      return usage;
    },
    /**
     * The owners whose repositories hold the most distinct content (private and public together), most
     * first, with each visibility's bytes: the site administrators' view of who uses the storage. An owner
     * is its lower-cased name here (repositories' `owner` keeps the case it was created with).
     */
    async topOwners(limit: number): Promise<{ owner: string; private: number; public: number }[]> {
      const rows = await q.all<{
        owner: string;
        private_bytes: number | string | null;
        public_bytes: number | string | null;
      }>(
        `SELECT owner_key AS owner,
           sum(CASE WHEN private = 0 THEN 0 ELSE size END) AS private_bytes,
           sum(CASE WHEN private = 0 THEN size ELSE 0 END) AS public_bytes
         FROM (
           SELECT DISTINCT lower(r.owner) AS owner_key, r.private AS private, c.sha256 AS sha256, c.size AS size
           FROM repo_contents c JOIN repos r ON r.id = c.repo_id
         ) AS owned
         GROUP BY owner_key ORDER BY sum(size) DESC, owner_key LIMIT ?`,
        [limit],
      );
      return rows.map((row) => ({
        owner: row.owner,
        private: Number(row.private_bytes ?? 0),
        public: Number(row.public_bytes ?? 0),
      }));
    },
    /** Which of `sha256s` the owner's repositories of that visibility already reference (counted already). */
    async held(owner: string, isPrivate: boolean, sha256s: readonly string[]): Promise<Set<string>> {
      if (sha256s.length === 0) return new Set();
      const rows = await q.all<{ sha256: string }>(
        `SELECT DISTINCT c.sha256 FROM repo_contents c JOIN repos r ON r.id = c.repo_id
         WHERE lower(r.owner) = lower(?) AND r.private = ? AND c.sha256 IN (${sha256s.map(() => "?").join(", ")})`,
        [owner, isPrivate ? 1 : 0, ...sha256s],
      );
      return new Set(rows.map((row) => row.sha256));
    },
    /**
     * Bytes uploaded through Xet to the owner's repositories of that visibility since `since` (ISO) that no
     * commit of theirs references yet (quota_pending_uploads, migration 42), leaving out `except`'s items.
     */
    async pending(
      owner: string,
      isPrivate: boolean,
      since: string,
      except?: { repoKey: number; items: readonly string[] },
    ): Promise<number> {
      const skip = except && except.items.length > 0 ? except : undefined;
      const row = await q.get<{ total: number | string | null }>(
        `SELECT sum(p.size) AS total FROM quota_pending_uploads p JOIN repos r ON r.id = p.repo_id
         WHERE lower(r.owner) = lower(?) AND r.private = ? AND p.created_at > ?
         ${skip ? `AND NOT (p.repo_id = ? AND p.item IN (${placeholders(skip.items)}))` : ""}
         AND (p.sha256 IS NULL OR NOT EXISTS (
           SELECT 1 FROM repo_contents c JOIN repos o ON o.id = c.repo_id
           WHERE c.sha256 = p.sha256 AND lower(o.owner) = lower(?) AND o.private = ?))`,
        [
          owner,
          isPrivate ? 1 : 0,
          since,
          ...(skip ? [skip.repoKey, ...skip.items] : []),
          owner,
          isPrivate ? 1 : 0,
        ],
      );
      return Number(row?.total ?? 0);
    },
    /** Records uploaded items of a repository as pending (a repeated item keeps its first time). */
    async addPending(
      repoKey: number,
      items: readonly { item: string; sha256?: string; size: number }[],
      at: string,
    ): Promise<void> {
      for (const entry of items) {
        await q.run(
          `INSERT INTO quota_pending_uploads (repo_id, item, sha256, size, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [repoKey, entry.item, entry.sha256 ?? null, entry.size, at],
        );
      }
    },
    /** Forgets pending items of a repository (xorbs a shard turned into files). */
    async removePending(repoKey: number, items: readonly string[]): Promise<void> {
      for (let at = 0; at < items.length; at += 500) {
        const batch = items.slice(at, at + 500);
        await q.run(
          `DELETE FROM quota_pending_uploads WHERE repo_id = ? AND item IN (${placeholders(batch)})`,
          [repoKey, ...batch],
        );
      }
    },
    /** Drops pending rows recorded before `before` (ISO): they no longer count. */
    async prunePending(before: string): Promise<void> {
      await q.run("DELETE FROM quota_pending_uploads WHERE created_at <= ?", [before]);
    },
  };
}
