/**
 * Migration 36: this hub's own download counts and likes per repository (35 was released empty) (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const CATALOGUE_COUNTERS_MIGRATION = "SELECT 1";
