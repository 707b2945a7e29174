/**
 * The viewer's /search over a real hub (SQLite, or PostgreSQL in that run): words matched as the public
 * viewer's full-text search matches them (any word of the query, stop words left out, case and accents
 * folded, stems when the card's one language is English), best first then in row order, paged, with the
 * total; the index per split built at conversion, and again on first need when it is missing; a private
 * dataset's search as its files.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { queryTerms, wordsOf } from "./viewer-fulltext.js";

const hub = useTestHub();
let token: string;

/** Sentences with accents, stems, numbers and two scripts; the row's index is its place here. */
const SENTENCES = [
  "The Quick brown fox",
  "Foxes are quick",
  "café crème at 10",
  "CAFE CREME",
  "jumping over the lazy dog",
  "the dog jumped",
  "日本 語",
  "nothing here",
];

async function api(path: string, auth = true) {
  const response = await fetch(`${hub.url}${path}`, {
    headers: auth ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> };
}

async function dataset(name: string, files: Record<string, string>, isPrivate = false) {
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name, type: "dataset", private: isPrivate }),
  });
  expect(created.status).toBe(200);
  const lines = [
    { key: "header", value: { summary: "data" } },
    ...Object.entries(files).map(([path, text]) => ({
      key: "file",
      value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
    })),
  ];
  const response = await fetch(`${hub.url}/api/datasets/alice/${name}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(response.status).toBe(200);
}

const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join("\n");
const search = (name: string, query: string, extra: Record<string, number> = {}, auth = true) =>
  api(
    `/datasets-server/search?${new URLSearchParams({
      dataset: `alice/${name}`,
      config: "default",
      split: "train",
      query,
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
    })}`,
    auth,
  );
const indexes = (answer: { body: Record<string, any> }) =>
  answer.body.rows.map((row: { row_idx: number }) => row.row_idx);

/** The indexes of the rows holding any of the query's words, by a reading of each row's words. */
const expected = (query: string): number[] =>
  SENTENCES.flatMap((text, index) =>
    wordsOf(text).some((word) => queryTerms(query).includes(word)) ? [index] : [],
  );
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

beforeAll(async () => {
  token = await userToken(hub.store, "alice");
  const rows = SENTENCES.map((text, id) => ({ id, text, tags: [`tag${id}`] }));
  await dataset("plain", { "train.jsonl": jsonl(rows) });
  await dataset("english", {
    "README.md": "---\nlanguage:\n- en\n---\n# English\n",
    "train.jsonl": jsonl(rows),
  });
  await dataset("numbers", { "train.csv": "a,b\n1,2.5\n3,4.5\n" });
  await dataset("hidden", { "train.jsonl": jsonl(rows) }, true);
  expect(await hub.viewer!.drain()).toBe(4);
}, 120_000);

describe("/search", () => {
  it.each([
    ["a word, whatever its case", "QUICK"],
    ["accents folded", "creme"],
    ["any of the words", "fox dog"],
    ["numbers and other scripts", "10 日本"],
    ["stop words left out", "the over"],
    ["punctuation between words", "lazy,dog!"],
  ])("finds %s as the public viewer does", async (_what, query) => {
    const answer = await search("plain", query);
    expect(answer.status).toBe(200);
    expect(sorted(indexes(answer))).toEqual(expected(query));
    expect(answer.body.num_rows_total).toBe(expected(query).length);
  });

  it("ranks the rows holding more of the query's words first (BM25)", async () => {
    // Ties (rows of one length, each holding the word) keep the split's order: viewer-query.test.ts.
    expect(indexes(await search("plain", "lazy dog jumping"))).toEqual([4, 5]);
  });

  it("answers rows as /rows does, with the features, and pages them", async () => {
    const all = await search("plain", "dog quick");
    expect(sorted(indexes(all))).toEqual([0, 1, 4, 5]);
    expect(all.body.features.map((f: { name: string }) => f.name)).toEqual(["id", "text", "tags"]);
    expect(all.body.rows.find((r: { row_idx: number }) => r.row_idx === 4)).toEqual({
      row_idx: 4,
      row: { id: 4, text: SENTENCES[4], tags: ["tag4"] },
      truncated_cells: [],
    });
    expect(all.body.partial).toBe(false);
    expect(all.body.num_rows_per_page).toBe(100);
    const second = await search("plain", "dog quick", { offset: 1, length: 2 });
    expect(indexes(second)).toEqual(indexes(all).slice(1, 3));
    expect(second.body.num_rows_total).toBe(all.body.num_rows_total);
    const past = await search("plain", "dog quick", { offset: 50 });
    expect(past.body.rows).toEqual([]);
    expect(past.body.num_rows_total).toBe(all.body.num_rows_total);
  });

  it("searches text inside lists, and words not in any row match nothing", async () => {
    expect(indexes(await search("plain", "tag6"))).toEqual([6]);
    expect((await search("plain", "zebra")).body.num_rows_total).toBe(0);
    expect((await search("plain", "the a of")).body.num_rows_total).toBe(0);
  });

  it("stems words when the dataset card's one language is English, and not otherwise", async () => {
    // "jumped" and "jumping" share the stem "jump"; "foxes" and "fox" share "fox".
    expect(sorted(indexes(await search("english", "jumps")))).toEqual([4, 5]);
    expect(sorted(indexes(await search("english", "foxes")))).toEqual([0, 1]);
    expect(indexes(await search("plain", "jumps"))).toEqual([]);
    expect(indexes(await search("plain", "foxes"))).toEqual([1]);
  });

  it("answers no rows for a split without text, and says so in /is-valid", async () => {
    const answer = await search("numbers", "1");
    expect(answer.status).toBe(200);
    expect(answer.body.num_rows_total).toBe(0);
    expect((await api("/datasets-server/is-valid?dataset=alice/numbers")).body.search).toBe(false);
    expect((await api("/datasets-server/is-valid?dataset=alice/plain")).body.search).toBe(true);
  });

  it("builds a missing index on first need, and answers the same", async () => {
    const before = await search("plain", "fox dog");
    const dir = join(hub.dataDir, "viewer", "fulltext");
    expect(readdirSync(dir).filter((name) => name.endsWith(".sqlite")).length).toBeGreaterThan(0);
    rmSync(dir, { recursive: true, force: true });
    const after = await search("plain", "fox dog");
    expect(after.body).toEqual(before.body);
    expect(readdirSync(dir).filter((name) => name.endsWith(".sqlite")).length).toBe(1);
  });

  it("keeps a private dataset's search to those who may read its files", async () => {
    expect((await search("hidden", "fox")).body.num_rows_total).toBe(1);
    const anonymous = await search("hidden", "fox", {}, false);
    expect([401, 404]).toContain(anonymous.status);
    expect(JSON.stringify(anonymous.body)).not.toContain("fox");
  });

  it("requires a query, and keeps pages at 100 rows", async () => {
    expect((await search("plain", "")).status).toBe(400);
    expect((await search("plain", "fox", { length: 101 })).status).toBe(400);
  });
});
