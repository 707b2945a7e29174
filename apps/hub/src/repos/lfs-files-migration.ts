/**
 * Migration 45: what list_lfs_files needs per LFS object of a repository (first path, push time). Released empty: never fill it; a later migration holds what it would have. Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const LFS_FILES_MIGRATION = "SELECT 1";
