/**
 * Migration 46: storage buckets as @huggingface/hub calls them (buckets/buckets-service.ts). Its own file so
 * that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF
 * NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * - `buckets`: one per `owner/name` (case-insensitive, as repository ids), private or public.
 * - `bucket_files`: what a bucket holds: a path and the Xet file at it (its hash and size), no history.
 * - `bucket_uploads`: the Xet files whose shards were uploaded with a bucket's write token: what the bucket may
 *   then add without proving anything else (knowing a hash is not a capability).
 */
const COMMON = (types: { id: string; key: string; text: string; int: string }) => `
  CREATE TABLE IF NOT EXISTS buckets (
    id ${types.id},
    name ${types.text} NOT NULL UNIQUE,
    owner ${types.text} NOT NULL,
    private ${types.int} NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS buckets_by_owner ON buckets (owner);
  CREATE TABLE IF NOT EXISTS bucket_files (
    bucket_id ${types.key} NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    xet_hash TEXT NOT NULL,
    size ${types.int} NOT NULL,
    uploaded_at TEXT NOT NULL,
    PRIMARY KEY (bucket_id, path)
  );
  CREATE INDEX IF NOT EXISTS bucket_files_by_hash ON bucket_files (xet_hash);
  CREATE TABLE IF NOT EXISTS bucket_uploads (
    bucket_id ${types.key} NOT NULL REFERENCES buckets (id) ON DELETE CASCADE,
    xet_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (bucket_id, xet_hash)
  );
`;

export const BUCKETS_MIGRATION = {
  sqlite: COMMON({ id: "INTEGER PRIMARY KEY", key: "INTEGER", text: "TEXT COLLATE NOCASE", int: "INTEGER" }),
  postgres: COMMON({ id: "BIGSERIAL PRIMARY KEY", key: "BIGINT", text: "CITEXT", int: "BIGINT" }),
} as const;
