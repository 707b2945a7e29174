/**
 * The dataset viewer's benchmark (issue 36), each figure beside its floor, DuckDB used directly:
 * - conversion of a CSV of BENCH_DATASETS_MB MiB (default 1024) to Parquet by the viewer's engine (as a
 *   conversion runs it: a split whose CSV is larger than a Parquet file, BENCH_PARQUET_FILE_MB (default 500
 *   MB), written in one pass in ordered ~file-sized parts) against one plain DuckDB
 *   `COPY (FROM read_csv(...)) TO ... (FORMAT parquet)`, and against the writer before the one pass (one
 *   file with two threads, then cut by row ranges: the rows written twice), in BENCH_CONVERT_ROUNDS
 *   alternating rounds (default 2); wall and CPU seconds, MiB/s, the ratios, and the process's peak RSS
 *   while converting. BENCH_CONVERT_ONLY=1 stops after it;
 * - on a split of BENCH_ROWS rows (default 10,000,000) written by the conversion's writer: `/rows` pages at
 *   random offsets (the API's query: the file's row range, so only its row groups are read) against DuckDB's
 *   plain LIMIT/OFFSET, the substring scan /search was (ILIKE over text columns, count and page) and
 *   `/filter` (parsed, checked and rendered as the API does, run on a session connection), p50/p99 in ms;
 * - on a split of BENCH_SEARCH_ROWS rows (default 1,000,000): the full-text index's build (wall and CPU
 *   seconds, peak RSS, file size) and `/search` as the API answers it (the index read on its worker thread:
 *   count and page; then the page's rows read from the Parquet file by their row numbers), for a word in one
 *   row and for a query whose words are in every row, against a substring scan of the same file (DuckDB
 *   ILIKE, the search before); and the event loop's delay while those searches and a million-row FTS5 walk
 *   run (the hub's other requests wait that long at most).
 * The engine is measured in-process (the HTTP layer around it is the hub's, measured by bench:hub). */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  createViewerEngine,
  readerSql,
  rowRangeSql,
  rowsByNumberSql,
  sqlString,
} from "../../apps/hub/src/viewer/viewer-engine.js";
import {
  buildFullTextIndex,
  queryTerms,
  searchFullTextIndex,
} from "../../apps/hub/src/viewer/viewer-fulltext.js";
import { createIndexReader } from "../../apps/hub/src/viewer/viewer-fulltext-reader.js";
import { checkFilter, filterProbe, withFilter } from "../../apps/hub/src/viewer/viewer-sql-guard.js";

const CSV_MB = Number(process.env.BENCH_DATASETS_MB ?? 1024);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const CONVERT_ROUNDS = Number(process.env.BENCH_CONVERT_ROUNDS ?? 2);
const SEARCH_ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const PARQUET_FILE_BYTES = Number(process.env.BENCH_PARQUET_FILE_MB ?? 500) * 1000 ** 2;
const CONVERT_ONLY = process.env.BENCH_CONVERT_ONLY === "1";
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

/** Samples the RSS every 50 ms while `work` runs; answers the peak above the start and the peak, in MiB. */
async function peakRss<T>(
  work: () => Promise<T>,
): Promise<{ value: T; peakMiB: number; peakTotalMiB: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMiB: (peak - start) / MIB, peakTotalMiB: peak / MIB };
  } finally {
    clearInterval(timer);
  }
}

/** p50 and p99 wall ms of `run`, and its mean CPU ms (all of the process's threads: DuckDB's too). */
async function latencies(
  run: () => Promise<unknown>,
  samples: number,
): Promise<{ p50: number; p99: number; cpuMs: number }> {
  await run(); // warm: caches, first reads
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cpuMs: (used.user + used.system) / 1000 / samples,
  };
}

async function main() {
  console.log(
    `# bench:datasets (${new Date().toISOString()}), ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}`,
  );
  const floor = await (
    await DuckDBInstance.create(":memory:", { threads: "2", memory_limit: "512MB" })
  ).connect();

  // The CSV: ids, floats, a label of 5 values and a text, about 84 bytes a row (measured: 1,508,971,990
  // bytes for 17,895,697 rows), so that the file is about BENCH_DATASETS_MB MiB.
  const csv = join(dir, "data.csv");
  const csvRows = Math.round((CSV_MB * MIB) / 84);
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
  // Alternating rounds (engine, floor, engine, floor...): on a shared machine a burst of other work hits
  // either side; each side's best round is compared, and the CPU seconds beside it.
  const hubRounds: { wallS: number; cpuS: number }[] = [];
  const cutRounds: { wallS: number; cpuS: number }[] = [];
  const directRounds: { wallS: number; cpuS: number }[] = [];
  let rss = { peakMiB: 0, peakTotalMiB: 0 };
  let hubParts = 0;
  let cutParts = 0;
  for (let round = 0; round < CONVERT_ROUNDS; round++) {
    const converted = await peakRss(() =>
      timed(() => engine.convert("csv", [csv], join(dir, "parquet", "converted"), PARQUET_FILE_BYTES)),
    );
    hubRounds.push(converted.value);
    hubParts = converted.value.value.length;
    // The writer before: no input size, so one file with the converter's threads, then the cut.
    const cut = await timed(() =>
      engine.writeParquet(
        `SELECT * FROM ${readerSql("csv", [csv])}`,
        join(dir, "parquet", "cut"),
        PARQUET_FILE_BYTES,
      ),
    );
    cutRounds.push(cut);
    cutParts = cut.value.length;
    rss = {
      peakMiB: Math.max(rss.peakMiB, converted.peakMiB),
      peakTotalMiB: Math.max(rss.peakTotalMiB, converted.peakTotalMiB),
    };
    directRounds.push(
      await timed(() =>
        floor.run(
          `COPY (FROM read_csv(${sqlString(csv)})) TO ${sqlString(join(dir, "direct.parquet"))} (FORMAT parquet, COMPRESSION zstd)`,
        ),
      ),
    );
  }
  const best = (rounds: { wallS: number; cpuS: number }[]) =>
    rounds.reduce((a, b) => (b.wallS < a.wallS ? b : a));
  const hub = best(hubRounds);
  const cut = best(cutRounds);
  const direct = best(directRounds);
  console.log(`\n## Conversion of a CSV to Parquet (best of ${CONVERT_ROUNDS} alternating rounds)\n`);
  console.log(
    "| | MiB | wall s | CPU s | MiB/s (wall) | ratio to floor (wall) | ratio to floor (CPU) | rounds (wall s) |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const roundsOf = (rounds: { wallS: number }[]) => rounds.map((r) => r.wallS.toFixed(1)).join(", ");
  console.log(
    `| viewer engine (${hubParts} part(s)) | ${csvMiB.toFixed(0)} | ${hub.wallS.toFixed(2)} | ${hub.cpuS.toFixed(2)} | ${(csvMiB / hub.wallS).toFixed(1)} | ${(direct.wallS / hub.wallS).toFixed(2)} | ${(direct.cpuS / hub.cpuS).toFixed(2)} | ${roundsOf(hubRounds)} |`,
  );
  console.log(
    `| one file, then cut (before; ${cutParts} part(s)) | ${csvMiB.toFixed(0)} | ${cut.wallS.toFixed(2)} | ${cut.cpuS.toFixed(2)} | ${(csvMiB / cut.wallS).toFixed(1)} | ${(direct.wallS / cut.wallS).toFixed(2)} | ${(direct.cpuS / cut.cpuS).toFixed(2)} | ${roundsOf(cutRounds)} |`,
  );
  console.log(
    `| DuckDB COPY (floor) | ${csvMiB.toFixed(0)} | ${direct.wallS.toFixed(2)} | ${direct.cpuS.toFixed(2)} | ${(csvMiB / direct.wallS).toFixed(1)} | 1.00 | 1.00 | ${roundsOf(directRounds)} |`,
  );
  console.log(
    `\nProcess RSS while converting: peak ${rss.peakTotalMiB.toFixed(0)} MiB, ${rss.peakMiB.toFixed(0)} MiB above its start (engine memory_limit 512MB, 2 threads).`,
  );
  rmSync(csv, { force: true });
  if (CONVERT_ONLY) return;

  // The split the queries read: ROWS rows written by the conversion's own writer (its row groups, its parts).
  const parts = await engine.writeParquet(
    `SELECT range AS id, ['cat','dog','bird','fish','ant'][range % 5 + 1] AS label,
            'text of row ' || range AS text FROM range(${ROWS})`,
    join(dir, "parquet", "split"),
    500 * 1000 ** 2,
  );
  const split = parts[0]!.localPath;
  const splitRows = parts[0]!.numRows;
  console.log(
    `\nSplit of ${ROWS.toLocaleString("en")} rows: ${parts.length} Parquet file(s), the first ${(statSync(split).size / MIB).toFixed(0)} MiB.`,
  );
  const source = `read_parquet(${sqlString(split)})`;
  let seed = 7;
  const randomOffset = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % Math.max(1, splitRows - 100);
  };
  // As /rows reads a page (viewer-api.ts): the file's row range; the floor, DuckDB's plain LIMIT/OFFSET.
  const pageSql = () => rowRangeSql(split, randomOffset(), 100);
  const offsetSql = () => `SELECT * FROM ${source} LIMIT 100 OFFSET ${randomOffset()}`;
  const searchWhere = `text ILIKE '%row 12345%'`;
  const searchSql = `SELECT * FROM (SELECT row_number() OVER () - 1 AS __row_idx, * FROM ${source}) WHERE ${searchWhere} ORDER BY __row_idx LIMIT 100`;
  const filterWhere = "label = 'dog' AND id % 1000 = 7";

  type Latency = Awaited<ReturnType<typeof latencies>>;
  const results: [string, Latency, Latency][] = [];
  results.push([
    "/rows at random offsets (floor: DuckDB LIMIT/OFFSET)",
    await latencies(() => engine.rows(pageSql()), SAMPLES),
    await latencies(() => floor.runAndReadAll(offsetSql()), SAMPLES),
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
  console.log(
    "| query | viewer p50 | viewer p99 | viewer CPU/query | DuckDB p50 (floor) | DuckDB p99 | DuckDB CPU/query | p50 ratio |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [name, viewer, direct] of results) {
    console.log(
      `| ${name} | ${ms(viewer.p50)} | ${ms(viewer.p99)} | ${ms(viewer.cpuMs)} | ${ms(direct.p50)} | ${ms(direct.p99)} | ${ms(direct.cpuMs)} | ${(viewer.p50 / direct.p50).toFixed(2)} |`,
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
): Promise<[string, Awaited<ReturnType<typeof latencies>>, Awaited<ReturnType<typeof latencies>>][]> {
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
  const reader = createIndexReader();
  const apiSearch = async (query: string) => {
    const { rowIndexes } = await searchFullTextIndex(reader, index, queryTerms(query), {
      offset: 0,
      length: 100,
    });
    if (rowIndexes.length > 0) await engine.rows(rowsByNumberSql(split, rowIndexes, 0));
  };
  const substring = (needle: string) => async () => {
    const where = `text ILIKE '%${needle}%'`;
    await floor.runAndReadAll(`SELECT count(*) FROM ${source} WHERE ${where}`);
    await floor.runAndReadAll(
      `SELECT * FROM (SELECT row_number() OVER () - 1 AS __row_idx, * FROM ${source}) WHERE ${where} ORDER BY __row_idx LIMIT 100`,
    );
  };
  const broad = await eventLoopDelay(() => latencies(() => apiSearch("row 123457"), samples));
  // The slowest statement an index answers: FTS5 walking a word's million rows (a count of a word that is in
  // every row), on the reader's worker thread, while the event loop's delay is sampled.
  const walk = await eventLoopDelay(() =>
    timed(() => reader.all(index, "SELECT count(*) FROM split_text WHERE split_text MATCH ?", ['"row"'])),
  );
  console.log(
    `\nEvent loop while searching (index on a worker thread): during the broad /search samples, delay max ${ms(broad.maxMs)}, p99 ${ms(broad.p99Ms)}; during a ${SEARCH_ROWS.toLocaleString("en")}-row FTS5 walk of ${(walk.value.wallS * 1000).toFixed(0)} ms, delay max ${ms(walk.maxMs)}.`,
  );
  return [
    [
      "/search, a word in one row (index + rows; floor: ILIKE scan)",
      await latencies(() => apiSearch("123457"), samples),
      await latencies(substring("row 123457 "), samples),
    ],
    [
      "/search, words in every row, 100 best (index + rows; floor: ILIKE scan)",
      broad.value,
      await latencies(substring("row"), samples),
    ],
  ];
}

/** Runs `work` while sampling the event loop's delay (10 ms resolution): its max and p99, in ms. */
async function eventLoopDelay<T>(
  work: () => Promise<T>,
): Promise<{ value: T; maxMs: number; p99Ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const value = await work();
    return { value, maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
  } finally {
    histogram.disable();
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
