/**
 * Migration 48: the search index's heads (docs/decisions/search.md, "Speed, third pass"). Its own file so that
 * its domain owns its schema; store/migrations.ts lists it in order. Everything is created IF NOT EXISTS and
 * filled only where empty: the upgrade tests replay migrations over a database that already holds them.
 *
 * A document's head is what says what a repository is (the words of its id, its owner, tags and README
 * headings), apart from its README body: a few words per repository where the body has hundreds. Searched
 * first, it answers tags and common words without reading every body that holds them, and it is where the
 * header's suggestions match the start of a word (search-table.ts `textCandidates`).
 * - SQLite: an FTS5 table of the head fields (the same columns and tokenizer as `search_text`, keyed by
 *   `doc_id` alike) with prefix indexes of 2 and 3 characters, so that a typed word's start is one index
 *   look-up rather than a merge of every word that begins with it.
 * - PostgreSQL: `search_docs.head`, the head's weighted lexemes (A id, B tags and headings, C owner: the
 *   document's own weights, the body being D), with its own GIN index. The rows are kept narrow: every
 *   document is moved out of its row into TOAST (`toast_tuple_target` 128 bytes), the head is kept in it
 *   (storage MAIN: compressed first, moved out only from a row too big for a page), and so are the type,
 *   key and name (storage PLAIN: with that target, an id of 30 bytes would be moved out too, and every
 *   trigram look-up's check of a key would read TOAST: 0.6 s for 10,000 keys). A document of ~2 KB
 *   left in the row made the table 4-5 times bigger than the cache, and a search's few thousand row reads
 *   (a head or an id to check) random reads of it: 0.1-0.3 s at 100,000 repositories. Only ranking the
 *   documents themselves reads them.
 * Existing documents get their heads here, from what the index already holds (SQLite's `search_text`
 * columns, PostgreSQL's document without its D lexemes), so no document needs rebuilding.
 */
const SQLITE = `
  CREATE VIRTUAL TABLE IF NOT EXISTS search_heads
    USING fts5(id_words, owner, tags, headings, tokenize = 'porter unicode61', prefix = '2 3');
  INSERT INTO search_heads (rowid, id_words, owner, tags, headings)
    SELECT t.rowid, t.id_words, t.owner, t.tags, t.headings FROM search_text t
    WHERE NOT EXISTS (SELECT 1 FROM search_heads h WHERE h.rowid = t.rowid);
`;

const POSTGRES = `
  ALTER TABLE search_docs ADD COLUMN IF NOT EXISTS head TSVECTOR;
  ALTER TABLE search_docs ALTER COLUMN head SET STORAGE MAIN, ALTER COLUMN type SET STORAGE PLAIN,
    ALTER COLUMN key SET STORAGE PLAIN, ALTER COLUMN name SET STORAGE PLAIN;
  ALTER TABLE search_docs SET (toast_tuple_target = 128);
  UPDATE search_docs SET head = ts_filter(document, '{a,b,c}') WHERE head IS NULL;
  ALTER TABLE search_docs ALTER COLUMN head SET NOT NULL;
  CREATE INDEX IF NOT EXISTS search_docs_by_head ON search_docs USING GIN (head);
`;

export const SEARCH_RANK_MIGRATION = { sqlite: SQLITE, postgres: POSTGRES };
