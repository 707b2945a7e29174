/**
 * Migration 25: the dataset viewer's conversion queue and results. Its own file so that its domain owns its
 * schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade
 * tests replay migrations over a database that already holds them.
 *
 * One row per dataset repository (`viewer_jobs`): the commit of main to convert, the queue state (leases as
 * the scanner's: scanning/scan-table.ts), and the last conversion's result (its splits, features, row counts,
 * Parquet files) or the reason it failed.
 */
export const VIEWER_MIGRATION = {
  sqlite: `
  CREATE TABLE IF NOT EXISTS viewer_jobs (
    repo_id INTEGER PRIMARY KEY REFERENCES repos (id) ON DELETE CASCADE,
    commit_oid TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'error')),
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_by TEXT,
    lease_until TEXT,
    queued_at TEXT NOT NULL,
    finished_at TEXT,
    converted_oid TEXT,
    result TEXT,
    error TEXT
  );
  CREATE INDEX IF NOT EXISTS viewer_jobs_by_status ON viewer_jobs (status, lease_until);
  `,
  postgres: `
  CREATE TABLE IF NOT EXISTS viewer_jobs (
    repo_id BIGINT PRIMARY KEY REFERENCES repos (id) ON DELETE CASCADE,
    commit_oid TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'error')),
    attempts BIGINT NOT NULL DEFAULT 0,
    claimed_by TEXT,
    lease_until TEXT,
    queued_at TEXT NOT NULL,
    finished_at TEXT,
    converted_oid TEXT,
    result TEXT,
    error TEXT
  );
  CREATE INDEX IF NOT EXISTS viewer_jobs_by_status ON viewer_jobs (status, lease_until);
  `,
};
