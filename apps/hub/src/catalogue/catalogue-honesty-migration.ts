/**
 * Migration 47: source dates and download counts for datasets and spaces on the catalogue pages (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const CATALOGUE_HONESTY_MIGRATION = "SELECT 1";
