import type { Dialect } from "../store/database.js";
import type { SearchType } from "./search-text.js";

/** The shortest text the id trigram indexes can look up (FTS5's trigram tokenizer and pg_trgm need three). */
export const MIN_INDEXED_TEXT = 3;

/** `text` as one FTS5 phrase: with the trigram tokenizer, a phrase matches ids containing it (any case). */
export function trigramPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * PostgreSQL: `search_docs.type` (column `column`) as a filter that no index answers. Left to itself the
 * planner ANDs the word or trigram look-up with a bitmap of the (type, key) unique index, which for models
 * is 60% of the table: reading it cost more (20-60 ms at 100,000 repositories, bench:search-profile) than
 * the rows it spares, since a search's matches are a few thousand rows at most.
 */
export function typeFilter(column: string): string {
  return `(${column} || '')`;
}

/** `%text%` for LIKE, any `\`, `%` or `_` in `text` escaped with `\`. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The condition "`column` (a listing's live id) contains `text` (any case) or the search ranked it" for a
 * listing's WHERE, when the search index is current (search-service.ts `rank` rebuilds what is queued just
 * before): the ids that contain `text` come from the index's id trigrams (SQLite `search_ids`, PostgreSQL's
 * pg_trgm GIN over `search_docs.key`), so the listing looks up a bounded set by its primary key instead of
 * reading every row (the scan cost 0.3 s of CPU per query at 100,000 repositories). One `IN` over a UNION,
 * not an OR of two: PostgreSQL cannot drive an index scan from an OR of subqueries.
 *
 * `ranked`: whether the listing query carries the `search_ranked` CTE (model-filters.ts).
 * `allContainingRanked`: the ranked ids hold every id containing `text` (the search looked them up, and
 * fewer than its bound did: search-service.ts `RankedSearch.everyContaining`), so the ranked ids alone are
 * the matches; the look-up is not made again for the page and again for the count (the header's
 * suggestions list and count three types). Text shorter than the trigrams falls back on a scan
 * (`instr`/`strpos`): such queries are rare and their matches many.
 */
export function indexedSearchMatchSql(
  dialect: Dialect,
  type: SearchType,
  column: string,
  text: string,
  options: { ranked: boolean; allContainingRanked: boolean },
): { sql: string; params: unknown[]; rankedOnly: boolean } {
  const { ranked } = options;
  const rankedIds = ranked ? " UNION ALL SELECT ranked_name FROM search_ranked" : "";
  // No id holds a space (catalogue/model-id.ts): with one, only the ranked ids match, and the trigram
  // look-up of several words (each trigram in many ids) is skipped.
  if (/\s/.test(text) || (options.allContainingRanked && text.length >= MIN_INDEXED_TEXT)) {
    if (!ranked) return { sql: "1 = 0", params: [], rankedOnly: false };
    const name = dialect === "postgres" ? "CAST(ranked_name AS CITEXT)" : "ranked_name";
    return { sql: `${column} IN (SELECT ${name} FROM search_ranked)`, params: [], rankedOnly: true };
  }
  if (text.length < MIN_INDEXED_TEXT) {
    const contains =
      dialect === "sqlite"
        ? `instr(lower(${column}), lower(?)) > 0`
        : `strpos(lower(${column}), lower(?)) > 0`;
    const id = dialect === "postgres" ? `CAST(${column} AS TEXT)` : column;
    return {
      sql: ranked ? `(${contains} OR ${id} IN (SELECT ranked_name FROM search_ranked))` : contains,
      params: [text],
      rankedOnly: false,
    };
  }
  if (dialect === "sqlite") {
    return {
      sql: `${column} IN (SELECT d.name FROM search_ids JOIN search_docs d ON d.doc_id = search_ids.rowid
        WHERE search_ids MATCH ? AND d.type = ?${rankedIds})`,
      params: [trigramPhrase(text), type],
      rankedOnly: false,
    };
  }
  // CITEXT on the subquery's side: the listing's id column is CITEXT and keeps its index.
  return {
    sql: `${column} IN (SELECT CAST(d.name AS CITEXT) FROM search_docs d
      WHERE d.key LIKE ? ESCAPE '\\' AND ${typeFilter("d.type")} = ?${ranked ? " UNION ALL SELECT CAST(ranked_name AS CITEXT) FROM search_ranked" : ""})`,
    params: [likeContaining(text.toLowerCase()), type],
    rankedOnly: false,
  };
}
