/**
 * Migration 34: git push's records. Its own file so that its domain owns its schema; store/migrations.ts lists
 * it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests replay migrations over a
 * database that already holds them. One text serves both dialects.
 *
 * - `git_commit_objects`: the exact body of a commit object pushed with git (its author and committer lines,
 *   time zones and message as git wrote them), so that the bare repository git serves rebuilds the commit
 *   under git's own id (bare-repository.ts). The hub's `commits` row holds what the hub shows (the pusher,
 *   the title, the description); this row what git hashes. It goes with its commit.
 */
export const GIT_PUSH_MIGRATION = `
  CREATE TABLE IF NOT EXISTS git_commit_objects (
    repo_id BIGINT NOT NULL,
    commit_oid TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (repo_id, commit_oid),
    FOREIGN KEY (repo_id, commit_oid) REFERENCES commits (repo_id, oid) ON DELETE CASCADE
  );
`;
