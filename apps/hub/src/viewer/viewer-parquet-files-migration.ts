/**
 * Migration 51: the dataset viewer's Parquet cache files, one row per file a hub cached for a dataset
 * (`dataDir/viewer/parquet/{sha256}.parquet`: written by a conversion, or fetched from the blob store on a
 * replica's first read). Its own file so that its domain owns its schema; store/migrations.ts lists it in
 * order. Tables and indexes are created IF NOT EXISTS: the upgrade tests replay migrations over a database that
 * already holds them.
 *
 * As `viewer_index_files` (migration 49) for the full-text indexes: the cache is named by content, so without
 * this list nothing says which dataset a file belongs to, and a new revision's conversion or the dataset's
 * deletion would leave the old files on disk for ever. No foreign key to `repos` on purpose: the rows of a
 * deleted dataset must outlive it until its files are removed (viewer-service.ts, sweepParquetFiles).
 */
const COMMON = (id: string) => `
  CREATE TABLE IF NOT EXISTS viewer_parquet_files (
    repo_id ${id} NOT NULL,
    sha256 TEXT NOT NULL,
    cached_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, sha256)
  );
  CREATE INDEX IF NOT EXISTS viewer_parquet_files_sha256 ON viewer_parquet_files (sha256);
`;

export const VIEWER_PARQUET_FILES_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
