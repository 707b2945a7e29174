/**
 * Migration 46: storage buckets as @huggingface/hub calls them (reserved until it lands). Its own file so that
 * its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT
 * EXISTS: the upgrade tests replay migrations over a database that already holds them.
 */
export const BUCKETS_MIGRATION = "SELECT 1";
