/**
 * Load test of the public listing API (npm run bench:hub-listing -w bench): a real hub in its own process
 * (serve.ts), 32 connections asking `GET /api/models?limit=1000&full=true` (and the plain listing) for
 * BENCH_SECONDS (default 10); the hub's resident memory (from /proc) before, at its peak during, and after,
 * with latency and throughput. The figure to watch is RSS during: it must stay bounded under load.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const serveScript = fileURLToPath(new URL("./serve.ts", import.meta.url));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const child = spawn(
  process.execPath,
  [
    "--conditions=source",
    "--import",
    "tsx",
    serveScript,
    "hub",
    "http://127.0.0.1:9",
    `bench-admin-${Date.now()}-token`,
  ],
  { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env } },
);
const firstLine = await new Promise<string>((resolve) => {
  createInterface({ input: child.stdout! }).once("line", resolve);
});
const { url } = JSON.parse(firstLine) as { url: string };
const pid = child.pid!;

const paths = ["/api/models?limit=1000&full=true", "/api/models?limit=1000"];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
await sleep(1000);
process.stdout.write(`hub ${url}, ${CONNECTIONS} connections, ${SECONDS} s per path\n\n`);
process.stdout.write(
  "path                                   RSS before  peak during  after 3 s   p50 ms  p99 ms  req/s   KB/response\n",
);
for (const path of paths) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  const result = await autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: SECONDS });
  clearInterval(sampler);
  await sleep(3000);
  const after = rssMb(pid);
  const errors = result.errors + result.timeouts + result.non2xx;
  const kb = result.throughput.total / Math.max(1, result.requests.total) / 1024;
  process.stdout.write(
    `${path.padEnd(38)} ${before.toFixed(0).padStart(7)} MB ${peak.toFixed(0).padStart(9)} MB ${after.toFixed(0).padStart(7)} MB ${String(result.latency.p50).padStart(8)} ${String(result.latency.p99).padStart(7)} ${result.requests.average.toFixed(0).padStart(6)} ${kb.toFixed(0).padStart(9)}${errors ? `  (${errors} errors)` : ""}\n`,
  );
}
child.kill("SIGTERM");
