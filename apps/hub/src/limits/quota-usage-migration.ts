/**
 * Migration 42: bytes uploaded through Xet that no commit references yet, counted against quotas. Its own file
 * so that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF
 * NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * - `quota_pending_uploads`: per repository, a xorb stored with one of its write tokens (`sha256` null) until a
 *   shard turns it into files, then each file (its checked `sha256`) until a commit of the owner references
 *   it. Rows older than a Xet write token's life stop counting and are pruned (limits/storage-quotas.ts).
 */
const COMMON = (bigint: string) => `
  CREATE TABLE IF NOT EXISTS quota_pending_uploads (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    item TEXT NOT NULL,
    sha256 TEXT,
    size ${bigint} NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, item)
  );
  CREATE INDEX IF NOT EXISTS quota_pending_uploads_by_time ON quota_pending_uploads (created_at);
`;

export const QUOTA_USAGE_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
