/**
 * Where a search's time goes (issue 39; npm run bench:search-profile -w bench): the bench:search corpus in a
 * database kept between runs (SQLite in `BENCH_SEARCH_DIR`, default a fixed folder under the temp dir; or the
 * PostgreSQL server at `BENCH_DATABASE_URL`), seeded and indexed once, then each kind of query run through
 * the same services the routes use, with every SQL statement timed and its plan printed (EXPLAIN QUERY PLAN /
 * EXPLAIN ANALYZE) once per kind. Prints, per kind and statement, the median ms (CPU ms on SQLite, which
 * runs in this process; on PostgreSQL the server's planning + execution time from EXPLAIN ANALYZE): what to
 * fix first. The per-query line adds this process's CPU (the hub's side: ranking, rows to records). Then the
 * `BENCH_SLOWEST` (default 3) slowest queries of each kind with each of their statements: a p99 is a few
 * queries, and a median per statement hides which.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSearchService } from "../../apps/hub/src/search/search-service.js";
import type { Database } from "../../apps/hub/src/store/database.js";
import { migrate } from "../../apps/hub/src/store/migrations.js";
import { openPostgresDatabase } from "../../apps/hub/src/store/postgres-database.js";
import { openSqliteDatabase } from "../../apps/hub/src/store/sqlite-database.js";
import { createStore, DATABASE_FILE } from "../../apps/hub/src/store/store.js";
import { corpus, queries, seed } from "./corpus.js";

const url = process.env.BENCH_DATABASE_URL;
const dir = process.env.BENCH_SEARCH_DIR ?? join(tmpdir(), "bench-search-profile");
const plans = process.env.BENCH_PLANS !== "0";
if (!url) mkdirSync(dir, { recursive: true });
// The hub's own file name: bench:search runs a hub on the same folder (BENCH_SEARCH_DIR) without seeding it again.
const db: Database = url ? openPostgresDatabase({ url }) : openSqliteDatabase(join(dir, DATABASE_FILE));
await migrate(db);

const repos = corpus();
if (Number((await db.get<{ n: number | string }>("SELECT count(*) AS n FROM repos"))!.n) < repos.length) {
  const started = Date.now();
  await seed(db, repos);
  console.log(`seeded ${repos.length} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Statement timings of the current query kind, keyed by the statement's first words. */
let timings = new Map<string, number[]>();
/** The current query's statements and their ms, in order (for the slowest queries of each kind). */
let statements: { sql: string; ms: number }[] = [];
/** How many of each kind's slowest queries to print with their statements (`BENCH_SLOWEST`). */
const slowest = Number(process.env.BENCH_SLOWEST ?? 3);
const explained = new Set<string>();
const shortSql = (sql: string) =>
  sql
    .replace(/\s+/g, " ")
    .replace(/VALUES (\(\?, CAST\(\? AS INTEGER\)\),? ?)+/g, "VALUES (...)")
    .slice(0, 150);
const all = db.all.bind(db);
for (const method of ["all", "get"] as const) {
  const original = db[method].bind(db) as (sql: string, params?: readonly unknown[]) => Promise<unknown>;
  (db as unknown as Record<string, unknown>)[method] = async (sql: string, params?: readonly unknown[]) => {
    const cpu = process.cpuUsage();
    const result = await original(sql, params);
    // SQLite runs in this process: its CPU time is the steady figure on a loaded machine.
    const used = process.cpuUsage(cpu);
    let ms = (used.user + used.system) / 1000;
    if (url && /^\s*(WITH|SELECT)/i.test(sql)) {
      // PostgreSQL's work is in the server's processes: its own account of the statement (planning and
      // execution), the steady figure on a loaded machine (the wall time carries the load).
      const [row] = await all<{ "QUERY PLAN": [{ "Planning Time": number; "Execution Time": number }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      const plan = row!["QUERY PLAN"][0];
      ms = plan["Planning Time"] + plan["Execution Time"];
    }
    const key = shortSql(sql);
    timings.set(key, [...(timings.get(key) ?? []), ms]);
    statements.push({ sql: key, ms });
    if (plans && !explained.has(key) && /^\s*(WITH|SELECT)/i.test(sql)) {
      explained.add(key);
      const plan = await all<Record<string, unknown>>(
        db.dialect === "sqlite" ? `EXPLAIN QUERY PLAN ${sql}` : `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        params,
      );
      const lines = plan.map((row) =>
        db.dialect === "sqlite" ? `  ${row.detail}` : `  ${row["QUERY PLAN"]}`,
      );
      console.log(`plan of ${key}\n${lines.join("\n")}`);
    }
    return result;
  };
}

const store = createStore(db);
const search = createSearchService(store);
const indexed = Date.now();
const documents = await search.refresh();
if (documents) console.log(`indexed ${documents} in ${((Date.now() - indexed) / 1000).toFixed(1)} s`);
// The planner's statistics, as autovacuum keeps them on a server in service (bench:search does the same).
if (url && documents) await db.exec("ANALYZE");

/** What an anonymous caller may see: public repositories only. */
const anonymous = { all: false as const, owners: [], repoIds: [] };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const byKind = new Map<string, string[]>();
for (const query of queries(repos)) {
  const list = byKind.get(query.kind) ?? [];
  list.push(query.path);
  byKind.set(query.kind, list);
}
for (const [kind, paths] of byKind) {
  timings = new Map();
  const totals: number[] = [];
  const cpus: number[] = [];
  const perQuery: { path: string; ms: number; statements: typeof statements }[] = [];
  for (const path of paths) {
    statements = [];
    const params = new URL(path, "http://hub").searchParams;
    const text = params.get("search") ?? params.get("q") ?? "";
    const types = path.startsWith("/api/quicksearch")
      ? (["model", "dataset", "space"] as const)
      : (["model"] as const);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const ranked = await search.rank(text, types, { typing: path.startsWith("/api/quicksearch") });
    for (const type of types) {
      const names = ranked.hits.filter((hit) => hit.type === type).map((hit) => hit.name);
      const filters = {
        search: text,
        searchRanked: names,
        searchRankedHasAllContaining: ranked.everyContaining,
      };
      if (type === "model") {
        await store.models.list({
          ...filters,
          visibleTo: anonymous,
          sort: "relevance",
          direction: -1,
          limit: 20,
        });
        await store.models.countMatching({ ...filters, visibleTo: anonymous });
      } else {
        const listing = { ...filters, type, visibleTo: anonymous };
        await store.reposListing.list({ ...listing, sort: "relevance", direction: -1, limit: 10 });
        await store.reposListing.count(listing);
      }
    }
    totals.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
    perQuery.push({ path, ms: statements.reduce((sum, statement) => sum + statement.ms, 0), statements });
  }
  console.log(
    `\n## ${kind}: ${paths.length} queries, median ${median(totals).toFixed(1)} ms, CPU ${median(cpus).toFixed(1)} ms`,
  );
  for (const [sql, ms] of timings) console.log(`  ${median(ms).toFixed(2)} ms x${ms.length}  ${sql}`);
  // The tail (p99) is a few queries: which ones, and which of their statements.
  for (const query of perQuery.sort((a, b) => b.ms - a.ms).slice(0, slowest)) {
    console.log(`  slow: ${query.ms.toFixed(1)} ms (statements) ${decodeURIComponent(query.path)}`);
    for (const statement of query.statements)
      console.log(`    ${statement.ms.toFixed(2)} ms  ${statement.sql}`);
  }
}
await db.close();
