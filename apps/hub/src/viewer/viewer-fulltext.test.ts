/**
 * The full-text index's counts and pages against a plain reading of the same rows' words, for queries
 * whose words are in every row, in most rows, in a few or in none (the vocabulary's counts and FTS5's walks
 * must agree with that reading), and its reads running off the event loop (a worker thread).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFullTextIndex, queryTerms, searchFullTextIndex, wordsOf } from "./viewer-fulltext.js";
import { createIndexReader } from "./viewer-fulltext-reader.js";

const dir = mkdtempSync(join(tmpdir(), "viewer-fulltext-"));
const ROWS = 20_000;
/**
 * Every row holds "alpha"; 3 in 5 "beta"; 1 in 100 "gamma"; row 777 "delta"; Unicode in some (none of these
 * is a stop word, which a query drops).
 */
const textOf = (row: number) =>
  [
    "alpha",
    row % 5 < 3 ? "beta" : "",
    row % 100 === 0 ? "gamma" : "",
    row === 777 ? "delta Café" : "",
    row % 1000 === 1 ? "日本" : "",
    `n${row}`,
  ]
    .filter(Boolean)
    .join(" ");
const texts = Array.from({ length: ROWS }, (_, row) => textOf(row));
const path = join(dir, "split.sqlite");
const reader = createIndexReader();

async function* batches() {
  for (let from = 0; from < ROWS; from += 7_000) yield texts.slice(from, from + 7_000);
}

beforeAll(async () => {
  await buildFullTextIndex(path, "none", batches());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rows holding any word of the query, by reading each row's words. */
const matching = (query: string) => {
  const terms = queryTerms(query);
  return texts.flatMap((text, row) => (wordsOf(text).some((word) => terms.includes(word)) ? [row] : []));
};

describe("searchFullTextIndex", () => {
  it.each([
    ["a word of every row", "alpha"],
    ["a word of most rows", "beta"],
    ["a word of most rows and a rare one", "beta gamma"],
    ["a word of every row and a rare one", "alpha delta"],
    ["rare words only", "gamma delta"],
    ["accents and other scripts", "cafe 日本"],
    ["a word of no row", "absent"],
    ["a known word and an unknown one", "delta absent"],
  ])("counts %s as a reading of the rows does", async (_what, query) => {
    const expected = matching(query);
    expect(queryTerms(query).length).toBe(query.split(" ").length);
    const answer = await searchFullTextIndex(reader, path, queryTerms(query), { offset: 0, length: 100 });
    expect(answer.total).toBe(expected.length);
    // The page holds matching rows only, as many as there are up to the page's length, none twice.
    expect(answer.rowIndexes.length).toBe(Math.min(100, expected.length));
    expect(new Set(answer.rowIndexes).size).toBe(answer.rowIndexes.length);
    const matched = new Set(expected);
    for (const row of answer.rowIndexes) expect(matched.has(row)).toBe(true);
  });

  it("puts rows with a rarer word first, then the others in row order, across pages", async () => {
    const terms = queryTerms("beta gamma");
    const page = async (offset: number) =>
      (await searchFullTextIndex(reader, path, terms, { offset, length: 100 })).rowIndexes;
    const fewRows = texts.flatMap((text, row) => (wordsOf(text).includes("gamma") ? [row] : []));
    expect(fewRows).toHaveLength(200);
    // Two pages of the rows holding the rarer word (ranked), then rows holding only "beta", in row order.
    const ranked = [...(await page(0)), ...(await page(100))];
    expect([...ranked].sort((a, b) => a - b)).toEqual(fewRows);
    const mostOnly = texts.flatMap((text, row) =>
      wordsOf(text).includes("beta") && !wordsOf(text).includes("gamma") ? [row] : [],
    );
    expect(await page(200)).toEqual(mostOnly.slice(0, 100));
    expect(await page(300)).toEqual(mostOnly.slice(100, 200));
  });

  it("reads the index on a worker thread: the event loop runs while a query does", async () => {
    // A statement of a second or so (SQLite counting to millions), as a broad query over a large index.
    const slow =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*) AS n FROM c";
    const started = performance.now();
    let answeredAt = 0;
    const query = reader.all(path, slow, []).then(() => {
      answeredAt = performance.now() - started;
    });
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now() - started), 10);
    await query;
    clearInterval(timer);
    // On the main thread (better-sqlite3 is synchronous) no timer could fire until the statement was done.
    expect(answeredAt).toBeGreaterThan(100);
    expect(ticks.filter((at) => at < answeredAt).length).toBeGreaterThan(2);
  });

  it("fails a read of a missing file with its reason", async () => {
    await expect(
      searchFullTextIndex(reader, join(dir, "missing.sqlite"), ["alpha"], { offset: 0, length: 10 }),
    ).rejects.toThrow(/unable to open|no such file|does not exist/i);
  });
});
