import { placeholders, type Queryable } from "../store/database.js";
import { likeContaining, MIN_INDEXED_TEXT, trigramPhrase, typeFilter } from "./search-match-sql.js";
import { QUEUE_UNINDEXED } from "./search-migration.js";
import {
  type Candidate,
  idPieces,
  type SearchDocument,
  type SearchSource,
  type SearchType,
  searchDocument,
} from "./search-text.js";

/** Candidates each index returns at most per query: what is ranked, and what a search can page through. */
export const MAX_CANDIDATES = 200;

/** Ids containing an id query as typed from which typos are no longer looked for (idCandidates). */
const TYPO_SKIP = 20;

/** Documents rebuilt per transaction while draining the queue. */
const REFRESH_BATCH = 400;

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

  /** The sources of these queued repositories (absent ones are gone: their documents are removed). */
  async function sources(
    queued: readonly { type: SearchType; name: string }[],
  ): Promise<Map<string, SearchSource>> {
    const found = new Map<string, SearchSource>();
    const add = (type: SearchType, row: SourceRow) =>
      found.set(`${type}\n${row.name.toLowerCase()}`, {
        type,
        name: row.name,
        owner: row.owner,
        tags: JSON.parse(row.tags) as string[],
        cardText: row.card_text,
      });
    const models = queued.filter((item) => item.type === "model").map((item) => item.name);
    if (models.length) {
      const rows = await q.all<SourceRow>(
        `SELECT id AS name, author AS owner, tags, card_text FROM models WHERE id IN (${placeholders(models)})`,
        models,
      );
      for (const row of rows) add("model", row);
    }
    const others = queued.filter((item) => item.type !== "model").map((item) => item.name);
    if (others.length) {
      const rows = await q.all<SourceRow & { type: SearchType }>(
        `SELECT type, name, owner, tags, card_text FROM repos WHERE type <> 'model' AND name IN (${placeholders(others)})`,
        others,
      );
      for (const row of rows) add(row.type, row);
    }
    return found;
  }

  /** Removes the documents of these (type, lower-cased id) keys, whatever holds them. */
  async function removeAll(keys: readonly { type: SearchType; key: string }[]): Promise<void> {
    if (keys.length === 0) return;
    const ids: (number | string)[] = [];
    for (const type of new Set(keys.map((k) => k.type))) {
      const ofType = keys.filter((k) => k.type === type).map((k) => k.key);
      const rows = await q.all<{ doc_id: number | string }>(
        `SELECT doc_id FROM search_docs WHERE type = ? AND key IN (${placeholders(ofType)})`,
        [type, ...ofType],
      );
      ids.push(...rows.map((row) => row.doc_id));
    }
    if (ids.length === 0) return;
    if (sqlite) {
      for (const table of ["search_text", "search_heads", "search_ids"]) {
        await q.run(`DELETE FROM ${table} WHERE rowid IN (${placeholders(ids)})`, ids);
      }
    }
    await q.run(`DELETE FROM search_docs WHERE doc_id IN (${placeholders(ids)})`, ids);
  }

  /** Writes new documents (their old ones removed first), in multi-row statements. */
  async function insertAll(
    docs: readonly { type: SearchType; name: string; doc: SearchDocument }[],
  ): Promise<void> {
    if (docs.length === 0) return;
    if (sqlite) {
      const inserted = await q.all<{ doc_id: number; type: string; key: string }>(
        `INSERT INTO search_docs (type, key, name) VALUES ${docs.map(() => "(?, ?, ?)").join(", ")}
         RETURNING doc_id, type, key`,
        docs.flatMap(({ type, name, doc }) => [type, doc.key, name]),
      );
      const idOf = new Map(inserted.map((row) => [`${row.type}\n${row.key}`, row.doc_id]));
      const rows = docs.map(({ type, doc }) => ({ id: idOf.get(`${type}\n${doc.key}`)!, doc }));
      await q.run(
        `INSERT INTO search_text (rowid, id_words, owner, tags, headings, body)
         VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
        rows.flatMap(({ id, doc }) => [
          id,
          `${doc.idWords} ${doc.key}`,
          doc.owner,
          doc.tags,
          doc.headings,
          doc.body,
        ]),
      );
      await q.run(
        `INSERT INTO search_heads (rowid, id_words, owner, tags, headings)
         VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}`,
        rows.flatMap(({ id, doc }) => [id, `${doc.idWords} ${doc.key}`, doc.owner, doc.tags, doc.headings]),
      );
      await q.run(
        `INSERT INTO search_ids (rowid, key) VALUES ${rows.map(() => "(?, ?)").join(", ")}`,
        rows.flatMap(({ id, doc }) => [id, doc.key]),
      );
      return;
    }
    // The head (id A, tags and headings B, owner C) and the body (D), each made once: the document is the
    // head followed by the body, as search_docs.head is the document without its D lexemes (migration 48).
    const row = `(?, ?, ?, setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('english', ?), 'B') ||
      setweight(to_tsvector('english', ?), 'B') || setweight(to_tsvector('english', ?), 'C'),
      setweight(to_tsvector('english', ?), 'D'))`;
    await q.run(
      `INSERT INTO search_docs (type, key, name, head, document)
       SELECT type, key, name, head, head || body
       FROM (VALUES ${docs.map(() => row).join(", ")}) AS made (type, key, name, head, body)`,
      docs.flatMap(({ type, name, doc }) => [
        type,
        doc.key,
        name,
        doc.idWords,
        doc.tags,
        doc.headings,
        doc.owner,
        doc.body,
      ]),
    );
  }

  /** Repositories whose id contains one of `pieces`, best first (bm25 on SQLite, word similarity on PostgreSQL). */
  async function containing(
    pieces: readonly string[],
    idQuery: string,
    types: readonly SearchType[],
    limit: number,
  ): Promise<Candidate[]> {
    if (sqlite) {
      const rows = await q.all<{ type: SearchType; name: string }>(
        `SELECT d.type, d.name FROM search_ids JOIN search_docs d ON d.doc_id = search_ids.rowid
         WHERE search_ids MATCH ? AND d.type IN (${placeholders(types)})
         ORDER BY rank LIMIT ?`,
        [pieces.map(trigramPhrase).join(" OR "), ...types, limit],
      );
      return rows.map((row) => ({ type: row.type, name: row.name }));
    }
    const rows = await q.all<{ type: SearchType; name: string }>(
      `SELECT type, name FROM search_docs
       WHERE (${pieces.map(() => "key LIKE ? ESCAPE '\\'").join(" OR ")}) AND ${typeFilter("type")} IN (${placeholders(types)})
       ORDER BY word_similarity(?, key) DESC, key LIMIT ?`,
      [...pieces.map(likeContaining), ...types, idQuery, limit],
    );
    return rows.map((row) => ({ type: row.type, name: row.name }));
  }

  /**
   * One index's matches for the phrases (every one; with `prefix`, the last word of the last one also as a
   * word's start), best first, at most `limit`, with their relevance scaled to the best (1): the heads' and
   * the documents' relevance are on different scales, and each source's best is as good a text match as
   * the other's (rankCandidates adds the id's closeness). `prefix` is for the heads only (their prefix
   * indexes on SQLite; textCandidates).
   */
  async function textMatches(
    index: "heads" | "documents",
    phrases: readonly (readonly string[])[],
    types: readonly SearchType[],
    prefix: boolean,
    limit: number,
  ): Promise<Candidate[]> {
    const last = prefix ? phrases.length - 1 : -1;
    let rows: { type: SearchType; name: string; relevance: number | string }[];
    if (sqlite) {
      const expression = phrases
        .map((words, i) => {
          const phrase = `"${words.join(" ")}"`;
          return i === last ? `(${phrase} OR ${phrase}*)` : phrase;
        })
        .join(" AND ");
      // Column weights: id words 10, owner 3, tags 5, headings 6, body 1.
      const [table, rank] =
        index === "heads"
          ? ["search_heads", "bm25(search_heads, 10.0, 3.0, 5.0, 6.0)"]
          : ["search_text", "bm25(search_text, 10.0, 3.0, 5.0, 6.0, 1.0)"];
      rows = await q.all(
        `SELECT d.type, d.name, -${rank} AS relevance
         FROM ${table} JOIN search_docs d ON d.doc_id = ${table}.rowid
         WHERE ${table} MATCH ? AND d.type IN (${placeholders(types)})
         ORDER BY ${rank} LIMIT ?`,
        [expression, ...types, limit],
      );
    } else {
      const expression = phrases
        .map((words, i) =>
          words
            .map((word, j) => (i === last && j === words.length - 1 ? `(${word} | ${word}:*)` : word))
            .join(" <-> "),
        )
        .map((phrase) => `(${phrase})`)
        .join(" & ");
      const column = index === "heads" ? "head" : "document";
      rows = await q.all(
        `SELECT type, name, ts_rank(${column}, query) AS relevance
         FROM search_docs, to_tsquery('english', ?) AS query
         WHERE ${column} @@ query AND ${typeFilter("type")} IN (${placeholders(types)})
         ORDER BY relevance DESC, key LIMIT ?`,
        [expression, ...types, limit],
      );
    }
    const best = Number(rows[0]?.relevance ?? 0);
    return rows.map((row) => ({
      type: row.type,
      name: row.name,
      text: best > 0 ? Number(row.relevance) / best : 0,
    }));
  }

  /** Set once PostgreSQL refused to merge the GIN pending lists (the hub's role does not own the indexes). */
  let mergeRefused = false;

  return {
    /**
     * PostgreSQL: merges the GIN indexes' pending lists (what `fastupdate` appends new entries to) into the
     * indexes. Every search scans a pending list whole: after indexing 100,000 documents the lists held
     * ~4 MB and each id look-up took 15-35 ms instead of 1-5 (bench:search-profile); autovacuum merges them
     * only now and then. Run after documents are rebuilt, so the writes pay for it, a little at a time.
     * A role that does not own the indexes may not: autovacuum is then what merges them.
     */
    async mergePendingIndexEntries(): Promise<void> {
      if (sqlite || mergeRefused) return;
      try {
        await q.get(
          `SELECT gin_clean_pending_list('search_docs_by_trigram'::regclass) AS ids,
             gin_clean_pending_list('search_docs_by_document'::regclass) AS words,
             gin_clean_pending_list('search_docs_by_head'::regclass) AS heads`,
        );
      } catch (error) {
        if ((error as { code?: string }).code !== "42501") throw error;
        mergeRefused = true;
      }
    },

    /** Whether documents wait to be rebuilt (one indexed look-up: cheap enough before every search). */
    async hasPending(): Promise<boolean> {
      return (await q.get("SELECT 1 AS one FROM search_pending LIMIT 1")) !== undefined;
    },

    /**
     * Rebuilds up to one batch of queued documents and removes them from the queue; returns how many. Run
     * in a write transaction (search-service.ts): two replicas draining at once rebuild the same rows alike.
     */
    async refreshBatch(): Promise<number> {
      // Taken off the queue first: a write committed while this runs queues its repository again, so a
      // document built from an older row is rebuilt (never left stale).
      const queued = await q.all<{ type: SearchType; name: string }>(
        `DELETE FROM search_pending WHERE (type, name) IN (SELECT type, name FROM search_pending LIMIT ${REFRESH_BATCH})
         RETURNING type, name`,
      );
      if (queued.length === 0) return 0;
      const found = await sources(queued);
      const keys = new Map<string, { type: SearchType; key: string }>();
      for (const { type, name } of queued)
        keys.set(`${type}\n${name.toLowerCase()}`, { type, key: name.toLowerCase() });
      await removeAll([...keys.values()]);
      await insertAll(
        [...keys.keys()].flatMap((key) => {
          const source = found.get(key);
          return source ? [{ type: source.type, name: source.name, doc: searchDocument(source) }] : [];
        }),
      );
      return queued.length;
    },

    /** Queues every repository the index does not hold (the start's backfill; after a database copy too). */
    async queueUnindexed(): Promise<number> {
      return q.run(QUEUE_UNINDEXED);
    },

    /**
     * Repositories whose text matches every phrase (search-text.ts `queryPhrases`), best first, each with
     * its relevance scaled to the best (1). The heads (id words, owner, tags, headings: migration 48) are
     * searched first; the whole documents only when fewer heads than `limit` match. A word in the head
     * outranks the body anyway (it weighs 3 to 10 times more), so a query whose heads fill the candidates
     * (a tag, a common word) need not read every body that holds it: those reads were most of a search's
     * time at 100,000 repositories (docs/decisions/search.md, "Speed, third pass").
     *
     * `prefix` (the header's suggestions: the query is typed still): the last phrase's last word also
     * matches as the start of a longer word, and only the heads are searched. Suggestions name
     * repositories; in the bodies a word's start is the start of thousands of words, each read and merged
     * per query (0.1-0.5 s at 100,000 repositories), and even a whole word typed so far can be in thousands
     * of bodies to rank (0.1-0.2 s on PostgreSQL). The heads index word starts for it (migration 48).
     */
    async textCandidates(
      phrases: readonly (readonly string[])[],
      types: readonly SearchType[],
      options: { prefix: boolean; limit?: number },
    ): Promise<Candidate[]> {
      if (phrases.length === 0 || types.length === 0) return [];
      const limit = options.limit ?? MAX_CANDIDATES;
      const heads = await textMatches("heads", phrases, types, options.prefix, limit);
      if (options.prefix || heads.length >= limit) return heads;
      return [...heads, ...(await textMatches("documents", phrases, types, false, limit))];
    },

    /**
     * Repositories whose id contains `idQuery`, or (with `typos`, and when few do) one of its pieces
     * (search-text.ts `idPieces`: an id with a typo or two still contains one). rankCandidates decides the
     * order. `everyContaining`: the candidates hold every id of `types` that contains `idQuery` (fewer than
     * `limit` do), so a listing need not look them up again.
     */
    async idCandidates(
      idQuery: string,
      types: readonly SearchType[],
      options: { typos: boolean } = { typos: true },
      limit = MAX_CANDIDATES,
    ): Promise<{ candidates: Candidate[]; everyContaining: boolean }> {
      if (idQuery.length < MIN_INDEXED_TEXT || types.length === 0)
        return { candidates: [], everyContaining: false };
      const exact = await containing([idQuery], idQuery, types, limit);
      const everyContaining = exact.length < limit;
      // Ids that contain the query as typed make typos unlikely: their pieces would only add noise (and
      // cost: a piece is in many more ids than the whole).
      if (!options.typos || exact.length >= TYPO_SKIP || idPieces(idQuery).length === 1)
        return { candidates: exact, everyContaining };
      const alike = await containing(idPieces(idQuery), idQuery, types, limit);
      return { candidates: [...exact, ...alike], everyContaining };
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
