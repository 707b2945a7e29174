/**
 * Migration 29: the full-text search index over repositories (reserved until they land). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const SEARCH_MIGRATION = "SELECT 1";
