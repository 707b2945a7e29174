/**
 * Migration 41: indexes and tables that keep search fast at 100,000 repositories (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const SEARCH_SPEED_MIGRATION = "SELECT 1";
