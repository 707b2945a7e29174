/**
 * Migration 44: the dataset viewer's full-text index per converted split (39 was released empty). Released empty: never fill it; a later migration holds what it would have. Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const VIEWER_FULLTEXT_MIGRATION = "SELECT 1";
