import type { Queryable } from "../store/database.js";

/**
 * Migration 29: the full-text search index over repositories (search/, docs/decisions/search.md). Its own
 * file so that its domain owns its schema; store/migrations.ts lists it in order. Everything is created IF
 * NOT EXISTS (or replaced): the upgrade tests replay migrations over a database that already holds them.
 *
 * - `repos.card_text`: a dataset's or space's README body, written with its card index on every commit to
 *   main (models keep theirs in `models.card_text`).
 * - `search_docs`: one row per indexed repository (type, lower-cased id as `key`, id as written). SQLite
 *   indexes its text in two FTS5 tables keyed by `doc_id`: `search_text` (words, porter-stemmed, one column
 *   per field so that ids and headings weigh more than the body) and `search_ids` (trigrams of the id: typos
 *   and substrings). PostgreSQL holds a weighted `tsvector` (GIN) and the id's trigrams (pg_trgm, GIN).
 * - `search_pending`: the repositories whose document must be rebuilt. Triggers on `models` and `repos`
 *   queue a row in the transaction of every write that changes an id, tags or card text (commit, rename,
 *   delete, catalogue import), so no write path can forget the index; the search service rebuilds queued
 *   documents before it answers (search-table.ts `refresh`). Visibility is never read from the index: results
 *   are always filtered through the live `models` / `repos` rows.
 * - SQLite's triggers test for the row instead of `INSERT OR IGNORE`: the conflict policy of the statement
 *   that fires a trigger overrides the trigger's own (an upsert into `models` made the queue's insert fail
 *   with a UNIQUE error).
 * - Every existing repository is queued here (the backfill); the hub's start queues any still missing.
 */
const SQLITE = `
  CREATE TABLE IF NOT EXISTS search_docs (
    doc_id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (type, key)
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS search_text
    USING fts5(id_words, owner, tags, headings, body, tokenize = 'porter unicode61');
  CREATE VIRTUAL TABLE IF NOT EXISTS search_ids USING fts5(key, tokenize = 'trigram');
  CREATE TABLE IF NOT EXISTS search_pending (
    type TEXT NOT NULL,
    name TEXT NOT NULL COLLATE NOCASE,
    PRIMARY KEY (type, name)
  ) WITHOUT ROWID;
  CREATE TRIGGER IF NOT EXISTS search_models_inserted AFTER INSERT ON models BEGIN
    INSERT INTO search_pending (type, name) SELECT 'model', NEW.id
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = 'model' AND name = NEW.id);
  END;
  CREATE TRIGGER IF NOT EXISTS search_models_updated AFTER UPDATE OF id, tags, card_text ON models BEGIN
    INSERT INTO search_pending (type, name) SELECT 'model', OLD.id
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = 'model' AND name = OLD.id);
    INSERT INTO search_pending (type, name) SELECT 'model', NEW.id
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = 'model' AND name = NEW.id);
  END;
  CREATE TRIGGER IF NOT EXISTS search_models_deleted AFTER DELETE ON models BEGIN
    INSERT INTO search_pending (type, name) SELECT 'model', OLD.id
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = 'model' AND name = OLD.id);
  END;
  CREATE TRIGGER IF NOT EXISTS search_repos_inserted AFTER INSERT ON repos WHEN NEW.type <> 'model' BEGIN
    INSERT INTO search_pending (type, name) SELECT NEW.type, NEW.name
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = NEW.type AND name = NEW.name);
  END;
  CREATE TRIGGER IF NOT EXISTS search_repos_updated AFTER UPDATE ON repos WHEN NEW.type <> 'model' BEGIN
    INSERT INTO search_pending (type, name) SELECT OLD.type, OLD.name
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = OLD.type AND name = OLD.name);
    INSERT INTO search_pending (type, name) SELECT NEW.type, NEW.name
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = NEW.type AND name = NEW.name);
  END;
  CREATE TRIGGER IF NOT EXISTS search_repos_deleted AFTER DELETE ON repos WHEN OLD.type <> 'model' BEGIN
    INSERT INTO search_pending (type, name) SELECT OLD.type, OLD.name
      WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE type = OLD.type AND name = OLD.name);
  END;
`;

const POSTGRES = `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  ALTER TABLE repos ADD COLUMN IF NOT EXISTS card_text TEXT;
  CREATE TABLE IF NOT EXISTS search_docs (
    doc_id BIGSERIAL PRIMARY KEY,
    type TEXT NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    document TSVECTOR NOT NULL,
    UNIQUE (type, key)
  );
  CREATE INDEX IF NOT EXISTS search_docs_by_document ON search_docs USING GIN (document);
  CREATE INDEX IF NOT EXISTS search_docs_by_trigram ON search_docs USING GIN (key gin_trgm_ops);
  CREATE TABLE IF NOT EXISTS search_pending (
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (type, name)
  );
  CREATE OR REPLACE FUNCTION search_queue_model() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO search_pending (type, name) VALUES ('model', OLD.id) ON CONFLICT DO NOTHING;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO search_pending (type, name) VALUES ('model', NEW.id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION search_queue_repo() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'INSERT' AND OLD.type <> 'model' THEN
      INSERT INTO search_pending (type, name) VALUES (OLD.type, OLD.name) ON CONFLICT DO NOTHING;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.type <> 'model' THEN
      INSERT INTO search_pending (type, name) VALUES (NEW.type, NEW.name) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE TRIGGER search_models_inserted AFTER INSERT OR DELETE ON models
    FOR EACH ROW EXECUTE FUNCTION search_queue_model();
  CREATE OR REPLACE TRIGGER search_models_updated AFTER UPDATE OF id, tags, card_text ON models
    FOR EACH ROW EXECUTE FUNCTION search_queue_model();
  CREATE OR REPLACE TRIGGER search_repos_changed AFTER INSERT OR UPDATE OR DELETE ON repos
    FOR EACH ROW EXECUTE FUNCTION search_queue_repo();
`;

/** Every repository, queued for its first document (what the index does not hold yet). */
export const QUEUE_UNINDEXED = `
  INSERT INTO search_pending (type, name)
    SELECT 'model', id FROM models
    WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.type = 'model' AND d.key = lower(models.id))
  UNION ALL
    SELECT type, name FROM repos
    WHERE type <> 'model'
      AND NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.type = repos.type AND d.key = lower(repos.name))
  ON CONFLICT DO NOTHING`;

export const SEARCH_MIGRATION = {
  async run(tx: Queryable): Promise<void> {
    if (tx.dialect === "sqlite") {
      const columns = await tx.all<{ name: string }>("SELECT name FROM pragma_table_info('repos')");
      if (!columns.some((column) => column.name === "card_text")) {
        await tx.exec("ALTER TABLE repos ADD COLUMN card_text TEXT");
      }
      await tx.exec(SQLITE);
    } else {
      await tx.exec(POSTGRES);
    }
    await tx.run(QUEUE_UNINDEXED);
    // Datasets and spaces indexed before their README body was kept get it from the start's card backfill.
    await tx.run(
      `INSERT INTO meta (key, value) SELECT 'repo_cards_pending', '1'
       WHERE EXISTS (SELECT 1 FROM repos WHERE type <> 'model') ON CONFLICT (key) DO NOTHING`,
    );
  },
};
