import type { Queryable } from "../store/database.js";

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
  };
}
