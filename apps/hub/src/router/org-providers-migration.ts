/**
 * Migration 37: own providers owned by organizations, visible to their members only (released empty: never fill it, databases have applied it; new tables go in a later migration). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const ORG_PROVIDERS_MIGRATION = "SELECT 1";
