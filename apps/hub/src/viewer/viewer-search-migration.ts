/**
 * Migration 39: the dataset viewer's full-text search index over converted rows (released empty: never fill it, databases have applied it; new tables go in a later migration). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const VIEWER_SEARCH_MIGRATION = "SELECT 1";
