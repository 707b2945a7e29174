/**
 * The dataset viewer's benchmark (issue 36), each figure beside its floor, DuckDB used directly:
 * - conversion of a CSV of BENCH_DATASETS_MB MiB (default 1024) to Parquet by the viewer's engine (as a
 *   conversion runs it: one ordered file, cut in ~500 MB parts) against one plain DuckDB
 *   `COPY (FROM read_csv(...)) TO ... (FORMAT parquet)`; wall and CPU seconds, MiB/s, the ratio, and the
 *   process's peak RSS above its start while converting;
 * - on a split of BENCH_ROWS rows (default 10,000,000): `/rows` pages at random offsets (the API's query,
 *   one Parquet file's LIMIT/OFFSET), the substring scan /search was (ILIKE over text columns, count and page) and
 *   `/filter` (parsed, checked and rendered as the API does, run on a session connection), p50/p99 in ms,
 *   against the same queries sent straight to DuckDB over the same file;
 * - on a split of BENCH_SEARCH_ROWS rows (default 1,000,000): the full-text index's build (wall and CPU
 *   seconds, peak RSS, file size) and `/search` as the API answers it (the index's count and page, then the
 *   page's rows read from the Parquet file by their row numbers), for a word in one row and for a query whose
 *   words are in every row, against a substring scan of the same file (DuckDB ILIKE, the search before).
 * The engine is measured in-process (the HTTP layer around it is the hub's, measured by bench:hub).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { createViewerEngine, sqlString } from "../../apps/hub/src/viewer/viewer-engine.js";
import {
  buildFullTextIndex,
  queryTerms,
  searchFullTextIndex,
} from "../../apps/hub/src/viewer/viewer-fulltext.js";
import { checkFilter, filterProbe, withFilter } from "../../apps/hub/src/viewer/viewer-sql-guard.js";

const CSV_MB = Number(process.env.BENCH_DATASETS_MB ?? 1024);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const SEARCH_ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const MIB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), "bench-datasets-"));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wallS: number; cpuS: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, wallS: (performance.now() - started) / 1000, cpuS: (used.user + used.system) / 1e6 };
}

/** Samples the RSS every 50 ms while `work` runs; answers the peak above the start, in MiB. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    const value = await work();
    return { value, peakMiB: (peak - start) / MIB };
  } finally {
    clearInterval(timer);
  }
}

async function latencies(
  run: () => Promise<unknown>,
  samples: number,
): Promise<{ p50: number; p99: number }> {
  await run(); // warm: caches, first reads
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function main() {
  console.log(
    `# bench:datasets (${new Date().toISOString()}), ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}`,
  );
  const floor = await (
    await DuckDBInstance.create(":memory:", { threads: "2", memory_limit: "512MB" })
  ).connect();

  // The CSV: ids, floats, a label of 5 values and a text, about 60 bytes a row.
  const csv = join(dir, "data.csv");
  const csvRows = Math.round((CSV_MB * MIB) / 60);
  await floor.run(
    `COPY (SELECT range AS id, random() * 1000 AS score, ['cat','dog','bird','fish','ant'][range % 5 + 1] AS label,
             'text of row ' || range || ' ' || md5(range::VARCHAR) AS text FROM range(${csvRows}))
     TO ${sqlString(csv)} (FORMAT csv, HEADER true)`,
  );
  const csvMiB = statSync(csv).size / MIB;

  const engine = createViewerEngine({
    parquetDir: join(dir, "parquet"),
    workDir: join(dir, "work"),
    threads: 2,
  });
  const converted = await peakRss(() =>
    timed(() => engine.convert("csv", [csv], join(dir, "parquet", "converted"), 500 * 1000 ** 2)),
  );
  const direct = await timed(() =>
    floor.run(
      `COPY (FROM read_csv(${sqlString(csv)})) TO ${sqlString(join(dir, "direct.parquet"))} (FORMAT parquet, COMPRESSION zstd)`,
    ),
  );
  const hub = converted.value;
  console.log("\n## Conversion of a CSV to Parquet\n");
  console.log("| | MiB | wall s | CPU s | MiB/s (wall) | ratio to floor (wall) |");
  console.log("|---|---|---|---|---|---|");
  console.log(
    `| viewer engine | ${csvMiB.toFixed(0)} | ${hub.wallS.toFixed(2)} | ${hub.cpuS.toFixed(2)} | ${(csvMiB / hub.wallS).toFixed(1)} | ${(direct.wallS / hub.wallS).toFixed(2)} |`,
  );
  console.log(
    `| DuckDB COPY (floor) | ${csvMiB.toFixed(0)} | ${direct.wallS.toFixed(2)} | ${direct.cpuS.toFixed(2)} | ${(csvMiB / direct.wallS).toFixed(1)} | 1.00 |`,
  );
  console.log(
    `\nPeak RSS above start while converting: ${converted.peakMiB.toFixed(0)} MiB (engine memory_limit 512MB).`,
  );
  rmSync(csv, { force: true });

  // The split the queries read: ROWS rows in one Parquet file, as a conversion writes it.
  const split = join(dir, "parquet", "split.parquet");
  await floor.run(
    `COPY (SELECT range AS id, ['cat','dog','bird','fish','ant'][range % 5 + 1] AS label,
             'text of row ' || range AS text FROM range(${ROWS}))
     TO ${sqlString(split)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`,
  );
  const source = `read_parquet(${sqlString(split)})`;
  let seed = 7;
  const randomOffset = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % Math.max(1, ROWS - 100);
  };
  const pageSql = () => `SELECT * FROM ${source} LIMIT 100 OFFSET ${randomOffset()}`;
  const searchWhere = `text ILIKE '%row 12345%'`;
  const searchSql = `SELECT * FROM (SELECT row_number() OVER () - 1 AS __row_idx, * FROM ${source}) WHERE ${searchWhere} ORDER BY __row_idx LIMIT 100`;
  const filterWhere = "label = 'dog' AND id % 1000 = 7";

  const results: [string, { p50: number; p99: number }, { p50: number; p99: number }][] = [];
  results.push([
    "/rows at random offsets",
    await latencies(() => engine.rows(pageSql()), SAMPLES),
    await latencies(() => floor.runAndReadAll(pageSql()), SAMPLES),
  ]);
  const searchSamples = Math.max(5, Math.floor(SAMPLES / 10));
  results.push([
    "substring scan, the /search before (count + page)",
    await latencies(async () => {
      await engine.scalar(`SELECT count(*) FROM ${source} WHERE ${searchWhere}`);
      await engine.rows(searchSql);
    }, searchSamples),
    await latencies(async () => {
      await floor.runAndReadAll(`SELECT count(*) FROM ${source} WHERE ${searchWhere}`);
      await floor.runAndReadAll(searchSql);
    }, searchSamples),
  ]);
  results.push([
    "/filter (check + count + page)",
    await latencies(async () => {
      const checked = checkFilter(
        await engine.parse(filterProbe(filterWhere, undefined)),
        ["id", "label", "text"],
        false,
      );
      const page = await engine.render(
        withFilter(await engine.parse("SELECT * FROM data WHERE true ORDER BY id LIMIT 100"), checked),
      );
      const count = await engine.render(
        withFilter(await engine.parse("SELECT count(*) FROM data WHERE true"), checked),
      );
      await engine.session({ data: `SELECT * FROM ${source}` }, 30_000, async (session) => {
        await session.scalar(count);
        await session.rows(page);
      });
    }, searchSamples),
    await latencies(async () => {
      await floor.runAndReadAll(`SELECT count(*) FROM ${source} WHERE ${filterWhere}`);
      await floor.runAndReadAll(`SELECT * FROM ${source} WHERE ${filterWhere} ORDER BY id LIMIT 100`);
    }, searchSamples),
  ]);
  results.push(...(await fullTextSearch(engine, floor, searchSamples)));
  console.log(
    `\n## Queries over a ${ROWS.toLocaleString("en")}-row split (full-text search: ${SEARCH_ROWS.toLocaleString("en")} rows)\n`,
  );
  console.log("| query | viewer p50 | viewer p99 | DuckDB p50 (floor) | DuckDB p99 | p50 ratio |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, viewer, direct] of results) {
    console.log(
      `| ${name} | ${ms(viewer.p50)} | ${ms(viewer.p99)} | ${ms(direct.p50)} | ${ms(direct.p99)} | ${(viewer.p50 / direct.p50).toFixed(2)} |`,
    );
  }
}

/**
 * The full-text index of a SEARCH_ROWS-row split, built as a conversion builds it (the text streamed from the
 * Parquet file), and /search's work against it: count and page from the index, rows from the Parquet file.
 */
async function fullTextSearch(
  engine: ReturnType<typeof createViewerEngine>,
  floor: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>["connect"]>>,
  samples: number,
): Promise<[string, { p50: number; p99: number }, { p50: number; p99: number }][]> {
  const split = join(dir, "parquet", "search.parquet");
  await floor.run(
    `COPY (SELECT range AS id, 'text of row ' || range || ' ' || md5(range::VARCHAR)[1:8] AS text
           FROM range(${SEARCH_ROWS}))
     TO ${sqlString(split)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`,
  );
  const index = join(dir, "search.sqlite");
  const built = await peakRss(() =>
    timed(() =>
      buildFullTextIndex(
        index,
        "none",
        engine.streamTexts(
          `SELECT concat_ws(' ', CAST(text AS VARCHAR)) FROM read_parquet(${sqlString(split)})`,
        ),
      ),
    ),
  );
  console.log(
    `\nFull-text index of ${SEARCH_ROWS.toLocaleString("en")} rows: built in ${built.value.wallS.toFixed(2)} s wall, ${built.value.cpuS.toFixed(2)} s CPU, peak RSS above start ${built.peakMiB.toFixed(0)} MiB, ${(statSync(index).size / MIB).toFixed(1)} MiB on disk.`,
  );
  const source = `read_parquet(${sqlString(split)})`;
  const apiSearch = async (query: string) => {
    const { rowIndexes } = searchFullTextIndex(index, queryTerms(query), { offset: 0, length: 100 });
    if (rowIndexes.length > 0) {
      await engine.rows(
        `SELECT * FROM (SELECT file_row_number AS __row_idx, * EXCLUDE (file_row_number)
           FROM read_parquet(${sqlString(split)}, file_row_number = true)
           WHERE file_row_number IN (${rowIndexes.join(", ")}))`,
      );
    }
  };
  const substring = (needle: string) => async () => {
    const where = `text ILIKE '%${needle}%'`;
    await floor.runAndReadAll(`SELECT count(*) FROM ${source} WHERE ${where}`);
    await floor.runAndReadAll(
      `SELECT * FROM (SELECT row_number() OVER () - 1 AS __row_idx, * FROM ${source}) WHERE ${where} ORDER BY __row_idx LIMIT 100`,
    );
  };
  return [
    [
      "/search, a word in one row (index + rows; floor: ILIKE scan)",
      await latencies(() => apiSearch("123457"), samples),
      await latencies(substring("row 123457 "), samples),
    ],
    [
      "/search, words in every row, 100 best (index + rows; floor: ILIKE scan)",
      await latencies(() => apiSearch("row 123457"), samples),
      await latencies(substring("row"), samples),
    ],
  ];
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
