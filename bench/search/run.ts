/**
 * Search at scale (issue 39; npm run bench:search -w bench): 100,000 repositories (`BENCH_REPOS`; 60% models,
 * 25% datasets, 15% spaces) with generated cards and tags, bulk-inserted into SQLite and into PostgreSQL (a
 * server the bench starts), the search index built from them (timed), then a hub on each database answering
 * queries one at a time through its HTTP API: words of a card, a misspelt id, a tag and an id fragment on
 * `GET /api/models?search=`, and the header's `GET /api/quicksearch`. Printed per database and kind: p50 and
 * p99 (ms) over `BENCH_QUERIES` queries (default 100), CPU ms per query (p50, p99: the bench process, which
 * runs the hub and SQLite, plus on PostgreSQL the server's processes, read from /proc), and whether the
 * repository a card-words or misspelt-id query was made from came first. Goals: p50 <= 30 ms, p99 <= 150 ms.
 * On a shared machine wall times swing with others' load; the CPU columns are the steadier figures.
 * `BENCH_SEARCH_DIR` (SQLite) and `BENCH_DATABASE_URL` (PostgreSQL) keep the seeded databases between runs,
 * shared with bench:search-profile: seeding and indexing 100,000 repositories take minutes.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startPostgres } from "../../apps/hub/src/__fixtures__/postgres-server.js";
import { createJsonLogger } from "../../apps/hub/src/logger.js";
import { createSearchService } from "../../apps/hub/src/search/search-service.js";
import { startHub } from "../../apps/hub/src/start-hub.js";
import { openStore } from "../../apps/hub/src/store/store.js";
import { corpus, queries, type Repo, seed } from "./corpus.js";

const ONLY = process.env.BENCH_DATABASES?.split(",") ?? ["sqlite", "postgres"];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/**
 * CPU ms used so far by a PostgreSQL server's client backends (the processes that run the queries: children
 * of the postmaster listening on `port`, named `postgres: user database address`), from /proc: the
 * database's share of a query's cost, which the bench process's own CPU leaves out. Autovacuum and the
 * other background processes are left out. Undefined where /proc has no schedstat.
 */
function postgresCpu(port: number): (() => number) | undefined {
  if (!existsSync("/proc/self/schedstat")) return undefined;
  const pids = () => readdirSync("/proc").filter((pid) => /^\d+$/.test(pid));
  const argv = (pid: string) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  const postmaster = pids().find((pid) => {
    try {
      const args = argv(pid);
      return args[0]?.endsWith("postgres") === true && args.join(" ").includes(`-p ${port}`);
    } catch {
      return false;
    }
  });
  if (!postmaster) return undefined;
  return () => {
    let nanoseconds = 0;
    for (const pid of pids()) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        // The fields after the command's closing parenthesis begin: state ppid.
        const parent = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
        if (parent !== postmaster || !/^postgres: \S+ \S+ [\d.:]+\(\d+\)/.test(argv(pid)[0] ?? "")) continue;
        // schedstat: the nanoseconds the process ran on a CPU (stat's utime/stime count 10 ms ticks).
        nanoseconds += Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The process ended meanwhile.
      }
    }
    return nanoseconds / 1e6;
  };
}

async function measure(
  label: string,
  options: { dataDir: string; databaseUrl?: string },
  repos: Repo[],
  serverCpu?: () => number,
) {
  const seeded = Date.now();
  const store = await openStore(options);
  // A database kept from an earlier run (BENCH_SEARCH_DIR, BENCH_DATABASE_URL) holds the corpus already.
  const held = Number((await store.db.get<{ n: number | string }>("SELECT count(*) AS n FROM repos"))!.n);
  if (held < repos.length) await seed(store.db, repos);
  const seedMs = Date.now() - seeded;
  const indexed = Date.now();
  const documents = await createSearchService(store).refresh();
  const indexMs = Date.now() - indexed;
  await store.close();
  if (options.databaseUrl) {
    // What autovacuum does within a minute of a bulk load on a running server: the planner's statistics
    // (without them its first minute's plans are guesses, not what a hub in service runs).
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query("VACUUM ANALYZE");
    await client.end();
  }
  console.log(
    `${label}: ${held < repos.length ? "seeded" : "opened (kept, migrated)"} ${repos.length} repositories in ${(seedMs / 1000).toFixed(1)} s, indexed ${documents} in ${(indexMs / 1000).toFixed(1)} s`,
  );

  const logger = createJsonLogger({
    level: "error",
    write: (line: string) => process.stderr.write(`${line}\n`),
  });
  const hub = await startHub({
    ...options,
    logger,
    providerSim: false,
    scanning: { workers: false },
    viewer: { workers: false },
    webhooks: { workers: false },
  });
  try {
    const byKind = new Map<string, { ms: number[]; cpu: number[]; first: number; named: number }>();
    for (const query of queries(repos)) {
      // Read before the bench's own CPU is: reading /proc costs the bench a little.
      const serverBefore = serverCpu?.() ?? 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const response = await fetch(`${hub.url}${query.path}`);
      const body = (await response.json()) as { id: string }[];
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const server = (serverCpu?.() ?? 0) - serverBefore;
      if (response.status !== 200)
        throw new Error(`${query.path}: ${response.status} ${JSON.stringify(body)}`);
      const kind = byKind.get(query.kind) ?? { ms: [], cpu: [], first: 0, named: 0 };
      kind.ms.push(ms);
      kind.cpu.push((used.user + used.system) / 1000 + server);
      if (query.expected) {
        kind.named++;
        if (Array.isArray(body) && body[0]?.id === query.expected) kind.first++;
      }
      byKind.set(query.kind, kind);
    }
    console.log(
      `| ${label} | kind | p50 ms | p99 ms | CPU ms p50 | CPU ms p99 | right one first |  (CPU: ${serverCpu ? "the bench process plus the PostgreSQL server's backends" : "the bench process, SQLite included"})`,
    );
    for (const [kind, { ms, cpu, first, named }] of byKind) {
      console.log(
        `| ${label} | ${kind} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 99).toFixed(1)} | ${percentile(cpu, 50).toFixed(1)} | ${percentile(cpu, 99).toFixed(1)} | ${named ? `${first}/${named}` : "-"} |`,
      );
    }
  } finally {
    await hub.close();
  }
}

const repos = corpus();
/** Kept between runs when set (seeded once): SQLite in BENCH_SEARCH_DIR, PostgreSQL at BENCH_DATABASE_URL. */
const kept = process.env.BENCH_SEARCH_DIR;
const keptUrl = process.env.BENCH_DATABASE_URL;
const dir = kept ?? mkdtempSync(join(tmpdir(), "bench-search-"));
try {
  if (ONLY.includes("sqlite")) await measure("sqlite", { dataDir: kept ?? join(dir, "sqlite") }, repos);
  if (ONLY.includes("postgres")) {
    const server = keptUrl
      ? { url: keptUrl, port: Number(new URL(keptUrl).port), stop: () => {} }
      : await startPostgres();
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public");
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
      await client.end();
      await measure(
        "postgres",
        { dataDir: join(dir, "postgres"), databaseUrl: server.url },
        repos,
        postgresCpu(server.port),
      );
    } finally {
      server.stop();
    }
  }
} finally {
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
