/**
 * Migration 43: own providers owned by organizations, visible to their members only (37 was released empty) (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const ORG_OWN_PROVIDERS_MIGRATION = "SELECT 1";
