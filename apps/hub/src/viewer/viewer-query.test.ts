/**
 * The viewer's caller-written queries and its statistics over a real hub (SQLite, or PostgreSQL in that run):
 * `/filter` (`where`, `orderby`) and the SQL console compared with the same selection made in JavaScript over
 * the rows the test wrote; hostile text (files, ATTACH, COPY, INSTALL, SET, PRAGMA, other datasets, endless
 * or huge queries) refused or cut within its limits; `/statistics` as the public viewer computes them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
let token: string;

interface Row {
  id: number;
  score: number | null;
  word: string;
  label: string;
  ok: boolean;
}
/** The rows of alice/table: ids 0..199, every 10th score missing, 3 labels, words with Unicode. */
const ROWS: Row[] = Array.from({ length: 200 }, (_, id) => ({
  id,
  score: id % 10 === 3 ? null : (id * 7) % 50,
  word: `mot ${id} é ✓`,
  label: ["cat", "dog", "bird"][id % 3]!,
  ok: id % 4 === 0,
}));
const csv = [
  "id,score,word,label,ok",
  ...ROWS.map((r) => `${r.id},${r.score ?? ""},${r.word},${r.label},${r.ok}`),
].join("\n");

async function api(method: string, path: string, body?: unknown, auth = true) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(auth ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> };
}

async function dataset(name: string, files: Record<string, string | Buffer>, isPrivate = false) {
  expect((await api("POST", "/api/repos/create", { name, type: "dataset", private: isPrivate })).status).toBe(
    200,
  );
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

const filter = (params: Record<string, string | number>) =>
  api(
    "GET",
    `/datasets-server/filter?${new URLSearchParams({
      dataset: "alice/table",
      config: "default",
      split: "train",
      ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    })}`,
  );
const sql = (text: string, extra: Record<string, unknown> = {}) =>
  api("POST", "/datasets-server/sql", { dataset: "alice/table", sql: text, ...extra });

/** A Parquet file of 1,000,000 rows: row i is {id: i, word: "row i"} (written by DuckDB, read back here). */
async function parquetOf(name: string, select: string): Promise<Buffer> {
  const path = join(hub.dir, `${name}.parquet`);
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  await connection.run(`COPY (${select}) TO '${path}' (FORMAT parquet)`);
  connection.closeSync();
  return readFileSync(path);
}
const millionRows = () =>
  parquetOf("million", "SELECT range AS id, 'row ' || range AS word FROM range(1000000)");

beforeAll(async () => {
  token = await userToken(hub.store, "alice");
  await dataset("table", { "train.csv": csv });
  await dataset("other", { "train.csv": "secret\nhidden-value\n" }, true);
  await dataset("million", { "train.parquet": await millionRows() });
  // Ten hours from 2024-01-01 00:00 UTC, and a missing instant.
  await dataset("times", {
    "train.parquet": await parquetOf(
      "times",
      `SELECT CASE WHEN range < 10 THEN TIMESTAMPTZ '2024-01-01 00:00:00+00' + INTERVAL (range) HOUR END AS at
       FROM range(11)`,
    ),
  });
  // Broken files: a bad JSON line; a Parquet file cut in half.
  await dataset("bad-json", { "train.jsonl": '{"a": 1}\n{"a": 2\n{"a": 3}\n' });
  const whole = await parquetOf("cut", "SELECT range AS n FROM range(1000)");
  await dataset("cut-parquet", { "train.parquet": whole.subarray(0, Math.floor(whole.length / 2)) });
  expect(await hub.viewer!.drain()).toBe(6);
}, 120_000);

describe("/filter", () => {
  it("answers the rows a where clause selects, ordered by orderby, with their row indexes", async () => {
    const answer = await filter({
      where: `"label" = 'dog' AND score >= 20`,
      orderby: "score DESC",
      length: 5,
    });
    expect(answer.status).toBe(200);
    const expected = ROWS.filter((r) => r.label === "dog" && r.score !== null && r.score >= 20).sort(
      (a, b) => b.score! - a.score! || a.id - b.id,
    );
    expect(answer.body.num_rows_total).toBe(expected.length);
    expect(answer.body.num_rows_per_page).toBe(100);
    expect(answer.body.partial).toBe(false);
    expect(answer.body.rows.map((r: { row_idx: number }) => r.row_idx)).toEqual(
      expected.slice(0, 5).map((r) => r.id),
    );
    expect(answer.body.rows[0].row).toEqual(expected[0]);
    expect(answer.body.features.map((f: { name: string }) => f.name)).toEqual([
      "id",
      "score",
      "word",
      "label",
      "ok",
    ]);
    const page = await filter({ where: "score IS NULL", offset: 10, length: 100 });
    expect(page.body.num_rows_total).toBe(20);
    expect(page.body.rows.map((r: { row_idx: number }) => r.row_idx)).toEqual(
      ROWS.filter((r) => r.score === null)
        .slice(10)
        .map((r) => r.id),
    );
    const ordered = await filter({ orderby: "word DESC", length: 2 });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    expect(ordered.body.num_rows_total).toBe(200);
    expect(ordered.body.rows.map((r: { row: Row }) => r.row.word)).toEqual(
      ROWS.map((r) => r.word)
        .sort()
        .reverse()
        .slice(0, 2),
    );
  });

  it.each([
    ["a statement separator", { where: "id = 1; DROP TABLE data" }, /contains invalid symbols/],
    ["a comment", { where: "id = 1 --" }, /contains invalid symbols/],
    ["a local file", { where: "id IN (SELECT 1 FROM read_csv('/etc/passwd'))" }, /is invalid/],
    ["a file in a function", { where: "read_text('/etc/passwd') IS NOT NULL" }, /is invalid/],
    ["another dataset", { where: "word IN (SELECT secret FROM other)" }, /is invalid/],
    ["a union", { where: "true) UNION ALL SELECT * FROM read_parquet('x') WHERE (true" }, /is invalid/],
    ["an unknown column", { where: "nope = 1" }, /is invalid.*no column/],
    ["a setting", { where: "current_setting('allowed_directories') IS NOT NULL" }, /is invalid/],
    ["a type error", { where: "label > 3 + 'x'" }, /is invalid/],
    ["orderby with a subquery", { orderby: "(SELECT 1)" }, /is invalid/],
    ["orderby with a limit", { orderby: "id LIMIT 1000000" }, /is invalid/],
    ["SQL executed from text", { where: "json_execute_serialized_sql('{}') IS NULL" }, /is invalid/],
  ])("refuses %s with the public viewer's 422", async (_what, params, message) => {
    const answer = await filter(params);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatch(message);
  });

  it("keeps pages at 100 rows", async () => {
    expect((await filter({ where: "true", length: 101 })).status).toBe(400);
  });
});

describe("the SQL console", () => {
  it("answers a read-only query over the splits by name, paged, with its columns", async () => {
    const answer = await sql(
      "WITH t AS (SELECT label, count(*) AS n, avg(score) AS mean FROM train GROUP BY label) SELECT * FROM t ORDER BY label",
    );
    expect(answer.status).toBe(200);
    const labels = ["bird", "cat", "dog"];
    expect(answer.body.rows).toEqual(
      labels.map((label) => {
        const of = ROWS.filter((r) => r.label === label);
        const scores = of.map((r) => r.score).filter((s): s is number => s !== null);
        return {
          label,
          n: of.length,
          mean: expect.closeTo(scores.reduce((a, b) => a + b, 0) / scores.length, 9),
        };
      }),
    );
    expect(answer.body.columns.map((c: { name: string }) => c.name)).toEqual(["label", "n", "mean"]);
    expect(answer.body.tables).toEqual(["default/train", "train"]);
    const paged = await sql(`SELECT id FROM "default/train" ORDER BY id DESC`, { offset: 3, length: 2 });
    expect(paged.body.rows).toEqual([{ id: 196 }, { id: 195 }]);
    expect(paged.body.truncated).toBe(true);
  });

  it.each([
    ["reading a local file", "SELECT * FROM read_csv('/etc/passwd')"],
    ["a file through a function", "SELECT read_text('/etc/hostname')"],
    ["COPY … TO", "COPY (SELECT * FROM train) TO '/tmp/viewer-leak.csv'"],
    ["ATTACH", "ATTACH '/tmp/viewer-attack.db' AS x"],
    ["INSTALL", "INSTALL httpfs"],
    ["LOAD", "LOAD httpfs"],
    ["SET", "SET enable_external_access = true"],
    ["PRAGMA", "PRAGMA database_list"],
    ["two statements", "SELECT 1; SELECT 2"],
    ["a catalog table", "SELECT * FROM duckdb_settings()"],
    ["a system view", "SELECT * FROM information_schema.tables"],
    ["another dataset's split", "SELECT * FROM other"],
    ["a glob", "SELECT * FROM glob('/**')"],
    ["SQL from text", "SELECT json_execute_serialized_sql('{}')"],
    ["a setting", "SELECT current_setting('allowed_directories')"],
    ["a write", "CREATE TABLE x AS SELECT 1"],
  ])("refuses %s", async (_what, text) => {
    const answer = await sql(text);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/refused|no table|Catalog/);
  });

  it("cuts a query that would run for minutes, and the hub answers after", async () => {
    const started = Date.now();
    const answer = await sql(
      "SELECT count(*) FROM train a, train b, train c, train d, train e WHERE a.word || b.word <> e.word",
      { timeout_ms: 1000 },
    );
    expect(answer.status).toBe(408);
    expect(answer.body.error).toMatch(/time limit/);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await sql("SELECT 1", { timeout_ms: 60_000 })).status).toBe(400);
    expect((await sql("SELECT count(*) AS n FROM train")).body.rows).toEqual([{ n: 200 }]);
  }, 90_000);

  it("refuses a query that would take all memory within the instance's limit", async () => {
    const answer = await sql("SELECT list(repeat(a.word, 10000)) FROM train a, train b, train c");
    expect([400, 408]).toContain(answer.status);
    expect((await sql("SELECT max(id) AS m FROM train")).body.rows).toEqual([{ m: 199 }]);
  }, 90_000);

  it("keeps a private dataset's console to those who may read it", async () => {
    const anonymous = await api(
      "POST",
      "/datasets-server/sql",
      { dataset: "alice/other", sql: "SELECT 1" },
      false,
    );
    expect(anonymous.status).toBe(401);
    const owner = await api("POST", "/datasets-server/sql", {
      dataset: "alice/other",
      sql: "SELECT * FROM train",
    });
    expect(owner.body.rows).toEqual([{ secret: "hidden-value" }]);
    expect((await sql("SELECT 1", { length: 1001 })).status).toBe(400);
  });
});

describe("broken files", () => {
  it.each([
    ["bad-json", /split train \(train\.jsonl\).*JSON/is],
    ["cut-parquet", /split train \(train\.parquet\)/i],
  ])("answers %s's conversion error with its reason, the others unaffected", async (name, reason) => {
    const answer = await api("GET", `/datasets-server/splits?dataset=alice/${name}`);
    expect(answer.status).toBe(500);
    expect(answer.body.error).toMatch(reason);
    expect((await api("GET", "/datasets-server/splits?dataset=alice/table")).status).toBe(200);
  });
});

describe("a 1,000,000-row split", () => {
  const get = (endpoint: string, params: Record<string, string | number>) =>
    api(
      "GET",
      `/datasets-server/${endpoint}?${new URLSearchParams({
        dataset: "alice/million",
        config: "default",
        split: "train",
        ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      })}`,
    );

  it("pages, searches, filters and describes it", async () => {
    const rows = await get("rows", { offset: 999_950, length: 100 });
    expect(rows.body.num_rows_total).toBe(1_000_000);
    expect(rows.body.rows).toHaveLength(50);
    expect(rows.body.rows[49]).toEqual({
      row_idx: 999_999,
      row: { id: 999_999, word: "row 999999" },
      truncated_cells: [],
    });
    const middle = await get("rows", { offset: 543_210, length: 1 });
    expect(middle.body.rows[0].row).toEqual({ id: 543_210, word: "row 543210" });
    // Words, as the public viewer's full-text search: "row" is in every row, so every row matches, the one
    // that also holds "123456" first (BM25), then the others in their order.
    const search = await get("search", { query: "ROW 123456", length: 3 });
    expect(search.body.num_rows_total).toBe(1_000_000);
    expect(search.body.rows.map((r: { row_idx: number }) => r.row_idx)).toEqual([123_456, 0, 1]);
    expect(search.body.rows[0].row).toEqual({ id: 123_456, word: "row 123456" });
    const one = await get("search", { query: "654321" });
    expect(one.body.num_rows_total).toBe(1);
    expect(one.body.rows[0]).toEqual({
      row_idx: 654_321,
      row: { id: 654_321, word: "row 654321" },
      truncated_cells: [],
    });
    const filtered = await get("filter", { where: "id % 100000 = 7", orderby: "id DESC", length: 3 });
    expect(filtered.body.num_rows_total).toBe(10);
    expect(filtered.body.rows.map((r: { row_idx: number }) => r.row_idx)).toEqual([
      900_007, 800_007, 700_007,
    ]);
    const statistics = await get("statistics", {});
    const id = statistics.body.statistics.find((s: { column_name: string }) => s.column_name === "id");
    expect(id.column_statistics).toMatchObject({ min: 0, max: 999_999, mean: 499_999.5, nan_count: 0 });
    expect(id.column_statistics.histogram.hist).toEqual(new Array(10).fill(100_000));
  }, 60_000);
});

describe("/statistics", () => {
  it("computes per-column statistics at conversion as the public viewer does", async () => {
    const answer = await api(
      "GET",
      "/datasets-server/statistics?dataset=alice/table&config=default&split=train",
    );
    expect(answer.status).toBe(200);
    expect(answer.body.num_examples).toBe(200);
    expect(answer.body.partial).toBe(false);
    const byName = Object.fromEntries(
      answer.body.statistics.map((s: { column_name: string }) => [s.column_name, s]),
    );
    expect(answer.body.statistics.map((s: { column_name: string }) => s.column_name)).toEqual([
      "id",
      "label",
      "ok",
      "score",
      "word",
    ]);
    // id: 0..199, integer bins of width ceil(200 / 10) = 20.
    expect(byName.id).toEqual({
      column_name: "id",
      column_type: "int",
      column_statistics: {
        nan_count: 0,
        nan_proportion: 0,
        min: 0,
        max: 199,
        mean: 99.5,
        median: 99.5,
        std: 57.87918,
        histogram: {
          hist: new Array(10).fill(20),
          bin_edges: [0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 199],
        },
      },
    });
    const scores = ROWS.map((r) => r.score).filter((s): s is number => s !== null);
    const score = byName.score.column_statistics;
    expect(byName.score.column_type).toBe("int");
    expect(score.nan_count).toBe(20);
    expect(score.nan_proportion).toBe(0.1);
    expect([score.min, score.max]).toEqual([Math.min(...scores), Math.max(...scores)]);
    expect(score.histogram.hist.reduce((a: number, b: number) => a + b, 0)).toBe(180);
    expect(byName.label).toEqual({
      column_name: "label",
      column_type: "string_label",
      column_statistics: {
        nan_count: 0,
        nan_proportion: 0,
        no_label_count: 0,
        no_label_proportion: 0,
        n_unique: 3,
        frequencies: { cat: 67, dog: 67, bird: 66 },
      },
    });
    expect(byName.ok.column_statistics).toEqual({
      nan_count: 0,
      nan_proportion: 0,
      frequencies: { False: 150, True: 50 },
    });
    // 200 distinct words: their lengths ("mot 0 é ✓" is 9 characters, "mot 199 é ✓" 11).
    expect(byName.word.column_type).toBe("string_text");
    expect(byName.word.column_statistics.min).toBe(9);
    expect(byName.word.column_statistics.max).toBe(11);
    const times = await api(
      "GET",
      "/datasets-server/statistics?dataset=alice/times&config=default&split=train",
    );
    // As the public viewer: whole seconds after the earliest instant, integer bins of ceil(32401 / 10) s.
    expect(times.body.statistics).toEqual([
      {
        column_name: "at",
        column_type: "datetime",
        column_statistics: {
          nan_count: 1,
          nan_proportion: 0.09091,
          min: "2024-01-01 00:00:00+0000",
          max: "2024-01-01 09:00:00+0000",
          mean: "2024-01-01 04:30:00+0000",
          median: "2024-01-01 04:30:00+0000",
          std: "3:01:39.541270",
          histogram: {
            hist: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            bin_edges: [0, 3241, 6482, 9723, 12964, 16205, 19446, 22687, 25928, 29169, 32400].map((s) =>
              new Date(Date.UTC(2024, 0, 1) + s * 1000)
                .toISOString()
                .replace("T", " ")
                .replace(".000Z", "+0000"),
            ),
          },
        },
      },
    ]);
    const valid = await api("GET", "/datasets-server/is-valid?dataset=alice/table");
    expect(valid.body.statistics).toBe(true);
  });
});
