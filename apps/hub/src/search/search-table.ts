import { placeholders, type Queryable } from "../store/database.js";
import { QUEUE_UNINDEXED } from "./search-migration.js";
import {
  type Candidate,
  plainTrigrams,
  type SearchDocument,
  type SearchSource,
  type SearchType,
  searchDocument,
} from "./search-text.js";

/** Candidates each index returns at most per query: what is ranked, and what a search can page through. */
export const MAX_CANDIDATES = 200;

/** Documents rebuilt per transaction while draining the queue. */
const REFRESH_BATCH = 500;

interface SourceRow {
  name: string;
  owner: string;
  tags: string;
  card_text: string | null;
}

/**
 * The search index (migration 29): rebuilding the queued documents, and finding candidates for a query by
 * words (FTS5 / tsvector) and by id (trigrams). Reads the `models` and `repos` rows only to build documents;
 * never decides visibility (the listings do, on the live rows).
 */
export function createSearchTable(q: Queryable) {
  const sqlite = q.dialect === "sqlite";

  async function source(type: SearchType, name: string): Promise<SearchSource | undefined> {
    const row =
      type === "model"
        ? await q.get<SourceRow>(
            "SELECT id AS name, author AS owner, tags, card_text FROM models WHERE id = ?",
            [name],
          )
        : await q.get<SourceRow>(
            "SELECT name, owner, tags, card_text FROM repos WHERE type = ? AND name = ?",
            [type, name],
          );
    if (!row) return undefined;
    return {
      type,
      name: row.name,
      owner: row.owner,
      tags: JSON.parse(row.tags) as string[],
      cardText: row.card_text,
    };
  }

  async function remove(type: SearchType, key: string): Promise<void> {
    const doc = await q.get<{ doc_id: number | string }>(
      "SELECT doc_id FROM search_docs WHERE type = ? AND key = ?",
      [type, key],
    );
    if (!doc) return;
    if (sqlite) {
      await q.run("DELETE FROM search_text WHERE rowid = ?", [doc.doc_id]);
      await q.run("DELETE FROM search_ids WHERE rowid = ?", [doc.doc_id]);
    }
    await q.run("DELETE FROM search_docs WHERE doc_id = ?", [doc.doc_id]);
  }

  async function write(type: SearchType, name: string, doc: SearchDocument): Promise<void> {
    await remove(type, doc.key);
    if (sqlite) {
      const inserted = await q.get<{ doc_id: number }>(
        "INSERT INTO search_docs (type, key, name) VALUES (?, ?, ?) RETURNING doc_id",
        [type, doc.key, name],
      );
      const id = inserted!.doc_id;
      await q.run(
        "INSERT INTO search_text (rowid, id_words, owner, tags, headings, body) VALUES (?, ?, ?, ?, ?, ?)",
        [id, `${doc.idWords} ${doc.key}`, doc.owner, doc.tags, doc.headings, doc.body],
      );
      await q.run("INSERT INTO search_ids (rowid, key) VALUES (?, ?)", [id, doc.key]);
      return;
    }
    await q.run(
      `INSERT INTO search_docs (type, key, name, document) VALUES (?, ?, ?,
         setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('english', ?), 'B') ||
         setweight(to_tsvector('english', ?), 'B') || setweight(to_tsvector('english', ?), 'C') ||
         setweight(to_tsvector('english', ?), 'D'))`,
      [type, doc.key, name, doc.idWords, doc.tags, doc.headings, doc.owner, doc.body],
    );
  }

  return {
    /** Whether documents wait to be rebuilt (one indexed look-up: cheap enough before every search). */
    async hasPending(): Promise<boolean> {
      return (await q.get("SELECT 1 AS one FROM search_pending LIMIT 1")) !== undefined;
    },

    /**
     * Rebuilds up to one batch of queued documents and removes them from the queue; returns how many. Run
     * in a write transaction (search-service.ts): two replicas draining at once rebuild the same rows alike.
     */
    async refreshBatch(): Promise<number> {
      const queued = await q.all<{ type: SearchType; name: string }>(
        `SELECT type, name FROM search_pending LIMIT ${REFRESH_BATCH}`,
      );
      for (const { type, name } of queued) {
        const found = await source(type, name);
        if (found) await write(type, found.name, searchDocument(found));
        else await remove(type, name.toLowerCase());
        await q.run("DELETE FROM search_pending WHERE type = ? AND name = ?", [type, name]);
      }
      return queued.length;
    },

    /** Queues every repository the index does not hold (the start's backfill; after a database copy too). */
    async queueUnindexed(): Promise<number> {
      return q.run(QUEUE_UNINDEXED);
    },

    /**
     * Repositories whose text matches every term (the last one also as a prefix: the query may be typed
     * still), best first, with the database's relevance (higher is better).
     */
    async textCandidates(
      terms: readonly string[],
      types: readonly SearchType[],
      limit = MAX_CANDIDATES,
    ): Promise<Candidate[]> {
      if (terms.length === 0 || types.length === 0) return [];
      const last = terms.length - 1;
      if (sqlite) {
        const expression = terms
          .map((term, i) => (i === last ? `("${term}" OR "${term}"*)` : `"${term}"`))
          .join(" AND ");
        const rows = await q.all<{ type: SearchType; name: string; relevance: number }>(
          `SELECT d.type, d.name, -bm25(search_text, 10.0, 3.0, 5.0, 6.0, 1.0) AS relevance
           FROM search_text JOIN search_docs d ON d.doc_id = search_text.rowid
           WHERE search_text MATCH ? AND d.type IN (${placeholders(types)})
           ORDER BY bm25(search_text, 10.0, 3.0, 5.0, 6.0, 1.0) LIMIT ?`,
          [expression, ...types, limit],
        );
        return rows.map((row) => ({
          type: row.type,
          name: row.name,
          text: row.relevance,
        }));
      }
      const expression = terms.map((term, i) => (i === last ? `(${term} | ${term}:*)` : term)).join(" & ");
      const rows = await q.all<{ type: SearchType; name: string; relevance: number }>(
        `SELECT type, name, ts_rank(document, query) AS relevance
         FROM search_docs, to_tsquery('english', ?) AS query
         WHERE document @@ query AND type IN (${placeholders(types)})
         ORDER BY relevance DESC, key LIMIT ?`,
        [expression, ...types, limit],
      );
      return rows.map((row) => ({
        type: row.type,
        name: row.name,
        text: Number(row.relevance),
      }));
    },

    /** Repositories whose id contains `idQuery` or looks like it (typos), by trigrams; unordered. */
    async idCandidates(
      idQuery: string,
      types: readonly SearchType[],
      limit = MAX_CANDIDATES,
    ): Promise<Candidate[]> {
      if (idQuery.length < 3 || types.length === 0) return [];
      if (sqlite) {
        const grams = plainTrigrams(idQuery).filter((gram) => !gram.includes('"'));
        if (grams.length === 0) return [];
        const rows = await q.all<{ type: SearchType; name: string }>(
          `SELECT d.type, d.name FROM search_ids JOIN search_docs d ON d.doc_id = search_ids.rowid
           WHERE search_ids MATCH ? AND d.type IN (${placeholders(types)})
           ORDER BY rank LIMIT ?`,
          [grams.map((gram) => `"${gram}"`).join(" OR "), ...types, limit],
        );
        return rows.map((row) => ({ type: row.type, name: row.name }));
      }
      const rows = await q.all<{ type: SearchType; name: string }>(
        `SELECT type, name FROM search_docs
         WHERE (key % ? OR ? <% key) AND type IN (${placeholders(types)})
         ORDER BY word_similarity(?, key) DESC, key LIMIT ?`,
        [idQuery, idQuery, ...types, idQuery, limit],
      );
      return rows.map((row) => ({ type: row.type, name: row.name }));
    },

    /** The README bodies of these datasets and spaces (for passages), keyed `type\nid` in lower case. */
    async cardTexts(repos: readonly { type: SearchType; id: string }[]): Promise<Map<string, string>> {
      const texts = new Map<string, string>();
      for (const { type, id } of repos) {
        if (type === "model") continue;
        const row = await q.get<{ card_text: string | null }>(
          "SELECT card_text FROM repos WHERE type = ? AND name = ?",
          [type, id],
        );
        if (row?.card_text) texts.set(`${type}\n${id.toLowerCase()}`, row.card_text);
      }
      return texts;
    },

    /**
     * Users and organizations whose name or full name contains `text` (any case), names first: accounts are
     * public on the hub, as their pages are. Disabled accounts are left out.
     */
    async accounts(
      text: string,
      kind: "user" | "org",
      limit: number,
    ): Promise<{ rows: { name: string; fullname: string }[]; total: number }> {
      const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const where = `kind = ? AND disabled_at IS NULL AND (lower(name) LIKE ? ESCAPE '\\' OR lower(fullname) LIKE ? ESCAPE '\\')`;
      const rows = await q.all<{ name: string; fullname: string }>(
        `SELECT name, fullname FROM accounts WHERE ${where}
         ORDER BY CASE WHEN lower(name) = ? THEN 0 WHEN lower(name) LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END, name LIMIT ?`,
        [kind, like, like, text.toLowerCase(), like, limit],
      );
      const total = await q.get<{ n: number | string }>(`SELECT count(*) AS n FROM accounts WHERE ${where}`, [
        kind,
        like,
        like,
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },
  };
}

export type SearchTable = ReturnType<typeof createSearchTable>;
