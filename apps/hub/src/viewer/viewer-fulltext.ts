import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { frontMatter } from "./data-files.js";
import type { IndexReader } from "./viewer-fulltext-reader.js";
import type { Feature, Stemmer } from "./viewer-records.js";
import { ENGLISH_STOP_WORDS } from "./viewer-stopwords.js";

/**
 * The viewer's full-text search: one SQLite FTS5 index per converted split, a file of its own beside the
 * Parquet cache (docs/decisions/dataset-viewer.md, "Search"). It matches words as the public viewer's /search
 * does (DuckDB `fts` there): a row matches when it holds any word of the query (stop words left out), in any
 * text column; rows come best first by BM25, ties in the split's order; accents and case are ignored; words
 * are stemmed only when the dataset card names one language that the engine has a stemmer for (English,
 * Porter's). Digits and letters of every script make words here (the public index keeps only a-z), so a
 * number or a word in Japanese can be found.
 *
 * The index stores no text (a contentless FTS5 table: rowid is the row's index in the split); the rows
 * themselves are read back from the Parquet files.
 */

/** Bumped when the index's layout or tokenization changes: older files are then rebuilt, not read. */
export const FULLTEXT_VERSION = 2;

/** Rows inserted per transaction while building (each commit lets FTS5 flush its in-memory terms). */
const BUILD_BATCH_ROWS = 50_000;

/**
 * The stemmer the public viewer picks: the one of the card's language when the card names exactly one
 * language; none otherwise. SQLite has Porter's stemmer only, so English is stemmed and others are not.
 */
export function stemmerOf(readme: string | undefined): Stemmer {
  const language = frontMatter(readme)?.language;
  const only = Array.isArray(language) ? (language.length === 1 ? language[0] : undefined) : language;
  return only === "en" || only === "eng" ? "porter" : "none";
}

/** Whether a feature holds text anywhere (a string, or a list or struct holding strings). */
function holdsText(type: Feature): boolean {
  if (type._type === "Value") return (type as { dtype: string }).dtype === "string";
  if (type._type === "List" || type._type === "Sequence") {
    return holdsText((type as { feature: Feature }).feature);
  }
  if (typeof type._type === "string") return false;
  return Object.values(type as Record<string, Feature>).some(holdsText);
}

/** The columns the index covers, as the public viewer's: those holding text anywhere in their type. */
export function searchableColumns(features: readonly { name: string; type: Feature }[]): string[] {
  return features.filter((feature) => holdsText(feature.type)).map((feature) => feature.name);
}

/** A text's words as the index's tokenizer sees them: case and accents folded, letters and digits only. */
export function wordsOf(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The distinct words of a query that can match: its stop words are in no row of the public viewer's index. */
export function queryTerms(query: string): string[] {
  return [...new Set(wordsOf(query).filter((word) => !ENGLISH_STOP_WORDS.has(word)))];
}

const tokenizer = (stemmer: Stemmer) =>
  stemmer === "porter" ? "porter unicode61 remove_diacritics 2" : "unicode61 remove_diacritics 2";

/**
 * Builds a split's index at `path` from its rows' text, streamed in order (one string per row, the row's
 * text columns joined): memory stays that of one batch. Written beside and renamed into place, so a reader
 * never sees a half-built file.
 */
export async function buildFullTextIndex(
  path: string,
  stemmer: Stemmer,
  texts: AsyncIterable<(string | null)[]>,
): Promise<{ rows: number }> {
  await mkdir(dirname(path), { recursive: true });
  const building = `${path}.${randomBytes(4).toString("hex")}.building`;
  const db = new BetterSqlite3(building);
  let rows = 0;
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(
      `CREATE VIRTUAL TABLE split_text USING fts5(text, content = '', tokenize = '${tokenizer(stemmer)}')`,
    );
    // Its vocabulary: how many rows hold each word, read by one lookup (searchFullTextIndex's counts).
    db.exec("CREATE VIRTUAL TABLE split_vocab USING fts5vocab(split_text, 'row')");
    db.exec(
      "CREATE TABLE index_info (version INTEGER NOT NULL, stemmer TEXT NOT NULL, num_rows INTEGER NOT NULL)",
    );
    const insert = db.prepare("INSERT INTO split_text (rowid, text) VALUES (?, ?)");
    const insertBatch = db.transaction((batch: (string | null)[], first: number) => {
      for (const [offset, text] of batch.entries()) if (text) insert.run(first + offset, text);
    });
    let pending: (string | null)[] = [];
    let pendingFrom = 0;
    for await (const batch of texts) {
      pending.push(...batch);
      rows += batch.length;
      if (pending.length >= BUILD_BATCH_ROWS) {
        insertBatch(pending, pendingFrom);
        pendingFrom = rows;
        pending = [];
      }
    }
    insertBatch(pending, pendingFrom);
    // One segment: a query then reads one doclist per word instead of merging many.
    db.exec("INSERT INTO split_text (split_text) VALUES ('optimize')");
    db.prepare("INSERT INTO index_info VALUES (?, ?, ?)").run(FULLTEXT_VERSION, stemmer, rows);
    db.close();
    await rename(building, path);
    return { rows };
  } catch (error) {
    if (db.open) db.close();
    await rm(building, { force: true });
    throw error;
  }
}

/**
 * The rows of a split's index matching any of `terms` (from queryTerms): how many, and the indexes of the
 * page `offset`..`offset + length`, best first by BM25, ties in row order. Every statement runs on `reader`'s
 * worker thread, so a broad query never holds the event loop.
 *
 * A word in at least half the rows weighs nothing in FTS5's BM25 (its IDF is clamped to ~0), yet ranking
 * every row it matches is most of a query's time (a second for a word in a million rows). So rows holding a
 * rarer word of the query come first, ranked; then the rows holding only such common words, in row order,
 * which is how they tie. A word's row count is read from the index's vocabulary (one lookup, not a walk of
 * its million rows); a query holding a word of every row matches every row, counted without a walk either.
 */
export async function searchFullTextIndex(
  reader: IndexReader,
  path: string,
  terms: readonly string[],
  page: { offset: number; length: number },
): Promise<{ total: number; rowIndexes: number[] }> {
  if (terms.length === 0) return { total: 0, rowIndexes: [] };
  // Terms are letters and digits only (wordsOf), so quoting each makes it a plain word to FTS5.
  const anyOf = (words: readonly string[]) => words.map((word) => `"${word}"`).join(" OR ");
  const [info] = await reader.all<{ num_rows: number; stemmer: Stemmer }>(
    path,
    "SELECT num_rows, stemmer FROM index_info",
    [],
  );
  const numRows = Number(info!.num_rows);
  const matching = async (match: string) =>
    Number(
      (
        await reader.all<{ n: number }>(
          path,
          "SELECT count(*) AS n FROM split_text WHERE split_text MATCH ?",
          [match],
        )
      )[0]!.n,
    );
  /**
   * The rows holding one word. Unstemmed, a word of the query is the index's own token when the vocabulary
   * has it (the tokenizer folds as wordsOf does, and a token never holds a separator): its row count is
   * exact. Stemmed (or a word the vocabulary lacks), the index is asked.
   */
  const rowsHolding = async (term: string) => {
    if (info!.stemmer === "none") {
      const [entry] = await reader.all<{ doc: number }>(path, "SELECT doc FROM split_vocab WHERE term = ?", [
        term,
      ]);
      if (entry) return Number(entry.doc);
    }
    return matching(anyOf([term]));
  };
  const perTerm = new Map<string, number>();
  for (const term of terms) perTerm.set(term, await rowsHolding(term));
  const rare = terms.filter((term) => perTerm.get(term)! * 2 < numRows);
  const common = terms.filter((term) => !rare.includes(term));
  const everyRow = terms.some((term) => perTerm.get(term) === numRows);
  const total =
    terms.length === 1 ? perTerm.get(terms[0]!)! : everyRow ? numRows : await matching(anyOf(terms));
  const rareTotal =
    rare.length === 0
      ? 0
      : common.length === 0
        ? total
        : rare.length === 1
          ? perTerm.get(rare[0]!)!
          : await matching(anyOf(rare));
  const rowIndexes: number[] = [];
  const rowids = async (sql: string, match: string, length: number, offset: number) =>
    (await reader.all<{ rowid: number }>(path, sql, [match, length, offset])).map((row) => Number(row.rowid));
  if (page.length > 0 && page.offset < rareTotal) {
    rowIndexes.push(
      ...(await rowids(
        "SELECT rowid FROM split_text WHERE split_text MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?",
        anyOf(rare),
        Math.min(page.length, rareTotal - page.offset),
        page.offset,
      )),
    );
  }
  const rest = page.length - rowIndexes.length;
  if (common.length > 0 && rest > 0 && page.offset + rowIndexes.length < total) {
    const onlyCommon = rare.length === 0 ? anyOf(common) : `(${anyOf(common)}) NOT (${anyOf(rare)})`;
    rowIndexes.push(
      ...(await rowids(
        "SELECT rowid FROM split_text WHERE split_text MATCH ? ORDER BY rowid LIMIT ? OFFSET ?",
        onlyCommon,
        rest,
        Math.max(0, page.offset - rareTotal),
      )),
    );
  }
  return { total, rowIndexes };
}
