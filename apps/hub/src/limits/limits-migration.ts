/**
 * Migration 30: rate-limit windows and storage quotas. Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 *
 * - `rate_limit_counts`: requests per bucket, caller and fixed window, summed over every replica. Each replica
 *   counts in memory and adds its counts here in batches (limits/rate-limiter.ts); rows of past windows are
 *   deleted by whichever replica syncs next.
 */
const COMMON = (bigint: string) => `
  CREATE TABLE IF NOT EXISTS rate_limit_counts (
    bucket TEXT NOT NULL,
    subject TEXT NOT NULL,
    window_start ${bigint} NOT NULL,
    count ${bigint} NOT NULL,
    PRIMARY KEY (bucket, subject, window_start)
  );
  CREATE INDEX IF NOT EXISTS rate_limit_counts_by_window ON rate_limit_counts (window_start);
`;

export const LIMITS_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
