/**
 * Migration 40: answers computed once per revision (model info), invalidated by commits across replicas (released empty: never fill it, databases have applied it; new tables go in a later migration). Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests
 * replay migrations over a database that already holds them.
 */
export const REVISION_CACHE_MIGRATION = "SELECT 1";
