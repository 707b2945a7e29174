/**
 * The engine's conversion and its query sandbox: caller-written text (`/filter`'s where and orderby, the SQL
 * console) runs in an instance that may read only the Parquet cache, install nothing and change no setting.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createViewerEngine, parseDuckJson } from "./viewer-engine.js";

const dir = mkdtempSync(join(tmpdir(), "viewer-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const engine = createViewerEngine({
  parquetDir: join(dir, "parquet"),
  workDir: join(dir, "work"),
  threads: 1,
});

describe("viewer engine", () => {
  it("converts a CSV to Parquet typed as pandas types it, and pages it", async () => {
    const csv = join(dir, "a.csv");
    writeFileSync(csv, "n,x,word,day\n1,0.5,un,2024-01-01\n2,,deux,2024-01-02\n");
    const written = await engine.convert("csv", [csv], join(dir, "parquet", "out"), 1e8);
    expect(written.map((file) => file.numRows)).toEqual([2]);
    expect(written[0]!.localPath).toMatch(/0000\.parquet$/);
    expect((await engine.features(written[0]!.localPath)).map((f) => [f.name, f.type])).toEqual([
      ["n", { dtype: "int64", _type: "Value" }],
      ["x", { dtype: "float64", _type: "Value" }],
      ["word", { dtype: "string", _type: "Value" }],
      ["day", { dtype: "string", _type: "Value" }],
    ]);
    expect(
      await engine.rows(`SELECT * FROM read_parquet('${written[0]!.localPath}') LIMIT 1 OFFSET 1`),
    ).toEqual([{ n: 2, x: null, word: "deux", day: "2024-01-02" }]);
  });

  it("reads text files as the library's text builder: one row per line, in order", async () => {
    const first = join(dir, "a.text");
    const second = join(dir, "b.text");
    writeFileSync(first, 'une ligne, avec virgule\n\n"citée" ✓\r\nfin\n');
    writeFileSync(second, "suite\tet fin");
    const written = await engine.convert("text", [first, second], join(dir, "parquet", "text"), 1e8);
    expect((await engine.features(written[0]!.localPath)).map((f) => [f.name, f.type])).toEqual([
      ["text", { dtype: "string", _type: "Value" }],
    ]);
    expect(await engine.rows(`SELECT * FROM read_parquet('${written[0]!.localPath}')`)).toEqual(
      ["une ligne, avec virgule", "", '"citée" ✓', "fin", "suite\tet fin"].map((text) => ({ text })),
    );
  });

  it("keeps the rows' order across the Parquet files of a large split (written in one pass)", async () => {
    const csv = join(dir, "ordered.csv");
    const rows = 300_000;
    writeFileSync(csv, `id,word\n${Array.from({ length: rows }, (_, i) => `${i},w${i}`).join("\n")}\n`);
    // Files of about 100 kB (COPY starts the next file once the size is past, at a row group's end).
    const written = await engine.convert("csv", [csv], join(dir, "parquet", "ordered"), 100_000);
    expect(written.length).toBeGreaterThan(1);
    expect(written.reduce((sum, file) => sum + file.numRows, 0)).toBe(rows);
    let start = 0;
    for (const file of written) {
      const misplaced = await engine.scalar(
        `SELECT count(*) FILTER (WHERE id <> file_row_number + ${start})
         FROM read_parquet('${file.localPath}', file_row_number = true)`,
      );
      expect(misplaced).toBe(0);
      start += file.numRows;
    }
  });

  it("keeps the rows' order when a split outgrows a file its originals did not (the cut of one file)", async () => {
    const csv = join(dir, "ordered.csv");
    // No input size given: the one file is written with the converter's threads, then cut by row ranges.
    const written = await engine.writeParquet(
      `SELECT * FROM read_csv('${csv}')`,
      join(dir, "parquet", "cut"),
      400_000,
    );
    expect(written.length).toBeGreaterThan(1);
    let start = 0;
    for (const file of written) {
      const misplaced = await engine.scalar(
        `SELECT count(*) FILTER (WHERE id <> file_row_number + ${start})
         FROM read_parquet('${file.localPath}', file_row_number = true)`,
      );
      expect(misplaced).toBe(0);
      start += file.numRows;
    }
    expect(start).toBe(300_000);
  });

  it("refuses a ragged CSV rather than dropping rows", async () => {
    const csv = join(dir, "ragged.csv");
    writeFileSync(csv, "a,b\n1,2\n3,4,5\n");
    await expect(engine.convert("csv", [csv], join(dir, "work", "ragged"), 1e8)).rejects.toThrow(/CSV/);
  });

  it.each([
    ["a local file", "SELECT * FROM read_csv('/etc/passwd')"],
    ["a local text", "SELECT * FROM read_text('/etc/hostname')"],
    ["ATTACH", "SELECT 1 FROM (SELECT 1) WHERE 1 = 1; ATTACH '/tmp/viewer-attack.db'"],
    ["an extension install", "INSTALL httpfs"],
    ["a setting change", "SET enable_external_access = true"],
    ["a remote file", "SELECT * FROM read_parquet('https://example.com/x.parquet')"],
  ])("refuses %s in the query instance", async (_what, sql) => {
    await expect(engine.scalar(sql)).rejects.toThrow();
  });

  it("interrupts a console query when its caller goes away, long before its time limit", async () => {
    const count = (rows: number) =>
      engine.session({ t: `SELECT * FROM range(${rows})` }, 5_000, (session) =>
        session.scalar("SELECT count(*) FROM t"),
      );
    // Started and warm, so that the caller goes away while the query itself runs.
    expect(await count(10)).toBe(10);
    const caller = new AbortController();
    let running = false;
    const started = Date.now();
    // A join of a trillion pairs: minutes of work, were it not interrupted.
    const endless = engine.session(
      { t: "SELECT * FROM range(1000000)" },
      60_000,
      (session) => {
        running = true;
        return session.scalar("SELECT count(*) FROM t a, t b, t c WHERE a.range + b.range = c.range");
      },
      caller.signal,
    );
    await expect.poll(() => running).toBe(true);
    setTimeout(() => caller.abort(), 500);
    await expect(endless).rejects.toMatchObject({ code: "QueryCancelled" });
    expect(Date.now() - started).toBeLessThan(10_000);
    // The instance is free again: the next session answers.
    expect(await count(20)).toBe(20);
  });

  it("answers NaN and infinities as null, as JSON has neither", () => {
    expect(parseDuckJson('{"a":NaN,"b":-Infinity,"c":"NaN","d":[Infinity,1]}')).toEqual({
      a: null,
      b: null,
      c: "NaN",
      d: [null, 1],
    });
  });
});
