/**
 * Migration 38: the built-in llama.cpp provider's enabled repositories and quantizations (reserved until it lands). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const LOCAL_PROVIDER_MIGRATION = "SELECT 1";
