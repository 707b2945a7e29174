/**
 * Migration 32: organization-owned providers, pricing and the local provider's records (reserved until they land). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const ROUTER_CATALOGUE_MIGRATION = "SELECT 1";
