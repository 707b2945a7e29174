/**
 * Migration 24: collections (the public hub's /api/collections). Its own file so that its domain owns its
 * schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade
 * tests replay migrations over a database that already holds them. One text serves both dialects.
 *
 * - `collections`: one per collection, `id` 24 hex digits (the tail of its slug, which is all that names it:
 *   a new title changes the slug, not the id). `owner` is the namespace (user or organization) as written,
 *   `owner_key` lower-cased for lookups; `position` orders an owner's collections.
 * - `collection_items`: a repository (or another collection) in a collection, `item_key` its lower-cased
 *   `type:id` (one row per item and collection), `position` its place, `note` the owner's text.
 */
export const COLLECTIONS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS collections (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    owner_key TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    private INTEGER NOT NULL,
    theme TEXT NOT NULL,
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS collections_by_owner ON collections (owner_key, position);
  CREATE TABLE IF NOT EXISTS collection_items (
    id TEXT PRIMARY KEY,
    collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    item_type TEXT NOT NULL,
    item_id TEXT NOT NULL,
    item_key TEXT NOT NULL,
    position INTEGER NOT NULL,
    note TEXT,
    added_at TEXT NOT NULL,
    UNIQUE (collection_id, item_key)
  );
  CREATE INDEX IF NOT EXISTS collection_items_by_item ON collection_items (item_key);
`;
