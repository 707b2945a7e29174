/**
 * The text side of search, the same on both databases: what a repository's document holds, how a query is
 * cut into terms, how ids are compared despite typos, and how candidates are scored. The databases only find
 * candidates (search-table.ts); the order is decided here, so SQLite and PostgreSQL rank alike.
 */

export type SearchType = "model" | "dataset" | "space";

/** The source of a document: a repository's id, owner, tags and README body. */
export interface SearchSource {
  type: SearchType;
  name: string;
  owner: string;
  tags: readonly string[];
  cardText: string | null;
}

export interface SearchDocument {
  key: string;
  /** The id cut into words (`google/bert-base` -> `google bert base`), with the id itself. */
  idWords: string;
  owner: string;
  tags: string;
  /** The README's Markdown headings: they say what the card is about, so they weigh more than its body. */
  headings: string;
  body: string;
}

/** At most this much of a README is indexed (a card's first 64 KiB say what it is about). */
const MAX_BODY_CHARS = 65_536;

const wordsOf = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, " ").trim();

export function searchDocument(source: SearchSource): SearchDocument {
  const card = (source.cardText ?? "").slice(0, MAX_BODY_CHARS);
  const headings = [...card.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((match) => match[1]);
  return {
    key: source.name.toLowerCase(),
    idWords: wordsOf(source.name),
    owner: wordsOf(source.owner),
    tags: source.tags.map(wordsOf).join(" "),
    headings: headings.map((heading) => wordsOf(heading ?? "")).join(" "),
    body: card,
  };
}

/** Words too common to say what a repository is about (PostgreSQL's English dictionary drops them too). */
const STOP_WORDS = new Set(
  "a an and are as at be by for from in is it of on or that the this to with".split(" "),
);

/**
 * A query's words, lower-cased, letters and digits only (safe in an FTS5 or tsquery expression), without
 * single characters and stop words: every one must match, so such words would only add noise.
 */
export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((term) => term.length >= 2 && !STOP_WORDS.has(term)),
    ),
  ].slice(0, 8);
}

/**
 * A query's terms grouped as typed: the words of one token without spaces (`topic-nlp`, `bert-base`) are a
 * phrase, found only next to each other, as a tag or an id holds them (also much cheaper to match than each
 * word anywhere: `topic` is in every tag). Words as queryTerms keeps them; a token that lost a word to that
 * filter gives its words apart, since the dropped word leaves a gap between them in the index.
 */
export function queryPhrases(query: string): string[][] {
  const phrases = new Map<string, string[]>();
  for (const token of query.toLowerCase().split(/\s+/)) {
    const words = token.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const kept = words.filter((word) => word.length >= 2 && !STOP_WORDS.has(word));
    const groups = kept.length > 1 && kept.length === words.length ? [kept] : kept.map((word) => [word]);
    for (const group of groups) phrases.set(group.join(" "), group);
  }
  return [...phrases.values()].slice(0, 8);
}

/** A query as an id would be written: lower case, no spaces (`Bert Base` -> `bert-base` is not guessed). */
export function idQuery(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, "-").slice(0, 96);
}

/** The shortest id query whose typos are looked for (idPieces): its pieces have 5 characters or more. */
export const MIN_TYPO_QUERY = 10;

/**
 * Pieces of an id query such that an id a typo or two away from it still contains a whole piece: the query
 * itself, and (from MIN_TYPO_QUERY characters) two or three consecutive pieces of at least 5 characters:
 * one typo spoils at most the one or two pieces it falls in (`bret-base-uncasd` still contains `base-u`).
 * Each piece is an indexed substring look-up (a trigram phrase, a pg_trgm LIKE): a few ids contain it, where
 * a single trigram is in most of them. A piece of 4 characters (two trigrams) was in thousands of ids at
 * 100,000 repositories (~100 ms on PostgreSQL to look up and order, for the header's suggestions while
 * an 8-character id is typed); a shorter query is matched as typed and by its words, as a prefix too.
 */
export function idPieces(query: string): string[] {
  if (query.length < MIN_TYPO_QUERY) return [query];
  // Two or three pieces: more would be shorter and each in more ids (to rank), for typos that are rare.
  const count = Math.max(2, Math.min(3, Math.floor(query.length / 5)));
  const size = query.length / count;
  const pieces = Array.from({ length: count }, (_, i) =>
    query.slice(Math.round(i * size), Math.round((i + 1) * size)),
  );
  return [...new Set([query, ...pieces])];
}

/** The trigrams of a word list, as pg_trgm makes them: each word padded with two spaces before, one after. */
function trigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (const word of text.split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** pg_trgm's similarity: shared trigrams over all trigrams of either text (0..1). */
export function trigramSimilarity(a: string, b: string): number {
  const [x, y] = [trigrams(a.toLowerCase()), trigrams(b.toLowerCase())];
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const gram of x) if (y.has(gram)) shared++;
  return shared / (x.size + y.size - shared);
}

export interface Candidate {
  type: SearchType;
  name: string;
  /** Full-text relevance from the database (higher is better; comparable within one query only). */
  text?: number;
}

export interface RankedHit {
  type: SearchType;
  name: string;
  score: number;
}

/** How close an id is to the query: the whole id or its name part, exactly, contained, or alike. */
function idScore(query: string, name: string): number {
  const id = name.toLowerCase();
  const short = id.slice(id.indexOf("/") + 1);
  if (id === query) return 100;
  if (short === query) return 90;
  if (query.length >= 2 && id.includes(query)) return 50 + 20 * (query.length / id.length);
  const similarity = Math.max(trigramSimilarity(query, id), trigramSimilarity(query, short));
  return similarity >= 0.35 ? 60 * similarity : 0;
}

/**
 * Scores candidates: how close the id is to the query (exact, contained, alike despite typos) plus the
 * full-text relevance scaled to the best of this query. Ties go by id, so the order is total and the same on both databases.
 */
export function rankCandidates(query: string, candidates: readonly Candidate[]): RankedHit[] {
  const asId = idQuery(query);
  const best = Math.max(0, ...candidates.map((candidate) => candidate.text ?? 0));
  const scored = new Map<string, RankedHit>();
  for (const candidate of candidates) {
    const key = `${candidate.type}\n${candidate.name.toLowerCase()}`;
    const text = candidate.text !== undefined && best > 0 ? 40 * (candidate.text / best) : 0;
    const score = idScore(asId, candidate.name) + text;
    const previous = scored.get(key);
    if (!previous) scored.set(key, { type: candidate.type, name: candidate.name, score });
    else previous.score = Math.max(previous.score, score);
  }
  return [...scored.values()]
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A passage of `text` around the first query term, with the terms wrapped in <em> (HTML-escaped). */
export function snippet(
  text: string,
  terms: readonly string[],
  width = 200,
): { text: string; formatted: string } {
  const lower = text.toLowerCase();
  const positions = terms.map((term) => lower.indexOf(term)).filter((at) => at >= 0);
  const first = positions.length ? Math.min(...positions) : 0;
  const start = Math.max(0, first - Math.floor(width / 4));
  const plain = text
    .slice(start, start + width)
    .replace(/\s+/g, " ")
    .trim();
  const escaped = plain.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
  const pattern = terms
    .filter((term) => term.length >= 2)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|");
  const formatted = pattern ? escaped.replace(new RegExp(`(${pattern})`, "gi"), "<em>$1</em>") : escaped;
  return { text: plain, formatted };
}
