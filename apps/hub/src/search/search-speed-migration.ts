/**
 * Migration 41: indexes that keep search fast at 100,000 repositories (docs/decisions/search.md, "Speed").
 * Its own file so that its domain owns its schema; store/migrations.ts lists it in order. Created IF NOT
 * EXISTS, the same on SQLite and PostgreSQL: the upgrade tests replay migrations over a database that
 * already holds them.
 *
 * A search's listing looks its candidate ids up (hundreds to thousands: the index's matches and the ids
 * containing the text) and keeps those the caller may see before it picks a page. These indexes hold the id
 * with the visibility columns, so that step reads the index alone, never the wide rows (cards included).
 */
export const SEARCH_SPEED_MIGRATION = `
  CREATE INDEX IF NOT EXISTS models_by_id_visibility ON models (id, private, author);
  CREATE INDEX IF NOT EXISTS repos_by_name_visibility ON repos (type, name, private, owner, mirror_of);
`;
