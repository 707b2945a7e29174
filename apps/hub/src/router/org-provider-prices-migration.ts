/**
 * Migration 50: prices of organizations' own providers (reserved until it lands). Its own file so that its
 * domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS:
 * the upgrade tests replay migrations over a database that already holds them.
 */
export const ORG_PROVIDER_PRICES_MIGRATION = "SELECT 1";
