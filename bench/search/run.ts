/**
 * Search at scale (issue 39; npm run bench:search -w bench): 100,000 repositories (`BENCH_REPOS`; 60% models,
 * 25% datasets, 15% spaces) with generated cards and tags, bulk-inserted into SQLite and into PostgreSQL (a
 * server the bench starts), the search index built from them (timed), then a hub on each database answering
 * queries one at a time through its HTTP API: words of a card, a misspelt id, a tag and an id fragment on
 * `GET /api/models?search=`, and the header's `GET /api/quicksearch`. Printed per database and kind: p50 and
 * p99 (ms) over `BENCH_QUERIES` queries (default 100), CPU ms per query of the hub process, and whether the
 * repository a card-words or misspelt-id query was made from came first. Goals: p50 <= 30 ms, p99 <= 150 ms.
 * On a shared machine wall times swing with others' load; the CPU column is the steadier figure.
 */
import { mkdtempSync, rmSync } from "node:fs";
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

async function measure(label: string, options: { dataDir: string; databaseUrl?: string }, repos: Repo[]) {
  const seeded = Date.now();
  const store = await openStore(options);
  await seed(store.db, repos);
  const seedMs = Date.now() - seeded;
  const indexed = Date.now();
  const documents = await createSearchService(store).refresh();
  const indexMs = Date.now() - indexed;
  await store.close();
  console.log(
    `${label}: seeded ${repos.length} repositories in ${(seedMs / 1000).toFixed(1)} s, indexed ${documents} in ${(indexMs / 1000).toFixed(1)} s`,
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
      const cpu = process.cpuUsage();
      const started = performance.now();
      const response = await fetch(`${hub.url}${query.path}`);
      const body = (await response.json()) as { id: string }[];
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (response.status !== 200)
        throw new Error(`${query.path}: ${response.status} ${JSON.stringify(body)}`);
      const kind = byKind.get(query.kind) ?? { ms: [], cpu: [], first: 0, named: 0 };
      kind.ms.push(ms);
      kind.cpu.push((used.user + used.system) / 1000);
      if (query.expected) {
        kind.named++;
        if (Array.isArray(body) && body[0]?.id === query.expected) kind.first++;
      }
      byKind.set(query.kind, kind);
    }
    console.log(`| ${label} | kind | p50 ms | p99 ms | CPU ms p50 | right one first |`);
    for (const [kind, { ms, cpu, first, named }] of byKind) {
      console.log(
        `| ${label} | ${kind} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 99).toFixed(1)} | ${percentile(cpu, 50).toFixed(1)} | ${named ? `${first}/${named}` : "-"} |`,
      );
    }
  } finally {
    await hub.close();
  }
}

const repos = corpus();
const dir = mkdtempSync(join(tmpdir(), "bench-search-"));
try {
  if (ONLY.includes("sqlite")) await measure("sqlite", { dataDir: join(dir, "sqlite") }, repos);
  if (ONLY.includes("postgres")) {
    const server = await startPostgres();
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public");
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
      await client.end();
      await measure("postgres", { dataDir: join(dir, "postgres"), databaseUrl: server.url }, repos);
    } finally {
      server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
