/**
 * Migration 30: rate-limit windows and storage quotas (reserved until they land). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const LIMITS_MIGRATION = "SELECT 1";
