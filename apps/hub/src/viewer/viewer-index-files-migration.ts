/**
 * Migration 49: the dataset viewer's full-text index files, one row per file a hub built for a dataset
 * (viewer/viewer-fulltext.ts: `dataDir/viewer/fulltext/{key}.sqlite`). Its own file so that its domain owns its
 * schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade
 * tests replay migrations over a database that already holds them.
 *
 * The files are a cache outside the database, named by a hash: without this list nothing says which dataset a
 * file belongs to, so a new revision's conversion or the dataset's deletion would leave the old ones on disk
 * for ever. No foreign key to `repos` on purpose: the rows of a deleted dataset must outlive it until its
 * files are removed (viewer-service.ts, sweepIndexFiles).
 */
export const VIEWER_INDEX_FILES_MIGRATION = {
  sqlite: `
  CREATE TABLE IF NOT EXISTS viewer_index_files (
    repo_id INTEGER NOT NULL,
    index_key TEXT NOT NULL,
    built_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, index_key)
  );
  `,
  postgres: `
  CREATE TABLE IF NOT EXISTS viewer_index_files (
    repo_id BIGINT NOT NULL,
    index_key TEXT NOT NULL,
    built_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, index_key)
  );
  `,
};
