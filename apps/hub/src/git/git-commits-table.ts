import type { Queryable } from "../store/database.js";

/** The bodies of commits pushed with git (migration 34: git-push-migration.ts). */
export function createGitCommitsTable(q: Queryable) {
  return {
    /** The commit object's body as git wrote it, or undefined for a commit the hub made itself. */
    async body(repoKey: number, commitOid: string): Promise<string | undefined> {
      const row = await q.get<{ body: string }>(
        "SELECT body FROM git_commit_objects WHERE repo_id = ? AND commit_oid = ?",
        [repoKey, commitOid],
      );
      return row?.body;
    },
    async insert(repoKey: number, commitOid: string, body: string): Promise<void> {
      await q.run(
        `INSERT INTO git_commit_objects (repo_id, commit_oid, body) VALUES (?, ?, ?)
         ON CONFLICT (repo_id, commit_oid) DO NOTHING`,
        [repoKey, commitOid, body],
      );
    },
  };
}

export type GitCommitsTable = ReturnType<typeof createGitCommitsTable>;
