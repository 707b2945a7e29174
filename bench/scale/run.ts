/**
 * How the API's cost grows with the number of models (bench/README.md): for 1k, 10k and 100k generated models
 * (BENCH_SCALES), one hub process each on SQLite, the latency of the listing (default sort, and filtered by
 * task sorted by likes), of search (a rare id fragment, and a common one) and of model info, one request at a
 * time (BENCH_REQUESTS per query, default 100, after 10 warm-up requests): p50 / p99 in ms, and the ratio of
 * each p50 to the 1k one.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveChild } from "../repos/measure.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const SCALES = (process.env.BENCH_SCALES ?? "1000,10000,100000").split(",").map(Number);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);

const QUERIES: Record<string, (n: number, i: number) => string> = {
  list: () => "/api/models?limit=20",
  listByTaskSortedByLikes: () => "/api/models?pipeline_tag=text-generation&sort=likes&limit=20",
  searchRare: (n, i) => `/api/models?search=model-${(i * 7919) % n}&limit=20`,
  searchCommon: (_n, i) => `/api/models?search=org-${i % 997}/&limit=20`,
  modelInfo: (n, i) => `/api/models/org-${((i * 7919) % n) % 997}/model-${(i * 7919) % n}`,
};

async function latencies(base: string, query: (n: number, i: number) => string, n: number) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 10; i++) {
    const start = performance.now();
    const response = await fetch(`${base}${query(n, i)}`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${query(n, i)}: ${response.status}`);
    if (i >= 10) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.floor(q * (times.length - 1))]!.toFixed(2));
  return { p50ms: at(0.5), p99ms: at(0.99) };
}

async function main() {
  const results: Record<string, Record<string, { p50ms: number; p99ms: number; x1k?: number }>> = {};
  const seeds: Record<string, number> = {};
  for (const n of SCALES) {
    const hub = await serveChild(join(HERE, "serve.ts"), String(n));
    try {
      seeds[n] = Number(hub.info.seedMs);
      results[n] = {};
      for (const [name, query] of Object.entries(QUERIES))
        results[n]![name] = await latencies(hub.info.url!, query, n);
    } finally {
      hub.child.kill("SIGTERM");
    }
  }
  const first = results[SCALES[0]!]!;
  for (const n of SCALES)
    for (const [name, value] of Object.entries(results[n]!))
      value.x1k = Number((value.p50ms / first[name]!.p50ms).toFixed(2));
  process.stdout.write(
    `${JSON.stringify({ requestsPerQuery: REQUESTS, seedMs: seeds, results }, null, 2)}\n`,
  );
}

void main();
