/**
 * Migration 51: the dataset viewer's Parquet cache files per revision, so old ones can be removed (reserved
 * until it lands). Its own file so that its domain owns its schema; store/migrations.ts lists it in order.
 * Tables and indexes are created IF NOT EXISTS: the upgrade tests replay migrations over a database that
 * already holds them.
 */
export const VIEWER_PARQUET_FILES_MIGRATION = "SELECT 1";
