/**
 * Router benchmark (npm run bench:router -w bench): the hub's `POST /v1/chat/completions` beside a bare
 * reverse proxy (bare-proxy.ts: node:http + undici, ~30 lines) in front of the same provider simulator, each in
 * its own process. The hub runs as `npm start` runs it (the built `apps/hub/dist/server.js` with
 * npm start's node options, configured by environment, providers pointed at the simulator by PROVIDER_BASE_URLS), reached only through its public HTTP surface.
 *   1. paced: provider-sim answers like a hosted model (first token after 150-400 ms, then 30-80 tokens/s;
 *      each call's draw fixed by its `seed`, so that both paths get the same calls), 64 calls in flight,
 *      streamed then not: added latency of the hub over the proxy to the first and to the last byte (p50, p99);
 *   2. zero latency: the simulator answers at once: CPU per call of the hub over the proxy's.
 * Hub and proxy alternate within each round (the first of them changes every round), over the same calls;
 * figures are the median of the rounds, with their spread.
 *   BENCH_ROUNDS (5)           rounds per scenario
 *   BENCH_CALLS (256)          calls per paced run (4 per connection at 64 in flight)
 *   BENCH_ZERO_CALLS (1500)    calls per zero-latency run
 *   BENCH_CONCURRENCY (64)     calls in flight
 *   BENCH_PACE (150-400:30-80) provider-sim's --pace: first-token ms : tokens/s
 *   BENCH_TOKENS (32)          content events per streamed answer (tokens of a paced non-streamed one)
 *   BENCH_HUB_ROOT             another checkout whose built hub runs (default: this repository)
 *   BENCH_HUB_NODE_OPTIONS     more node flags for the hub only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 *   BENCH_PROXY_NODE_OPTIONS   the same for the proxy set against it (its profile beside the hub's)
 *   BENCH_SCENARIOS            the scenarios to run (default all): paced-streamed,paced-json,zero-streamed,zero-json
 *   BENCH_WARMUP_RUNS          full uncounted runs per side before the rounds (default: one run of at most
 *                              2 × BENCH_CONCURRENCY calls)
 *   BENCH_STDOUT_DIR           each process's stdout after its URL line (e.g. --trace-opt, --trace-gc from
 *                              BENCH_HUB_NODE_OPTIONS) appended to `<dir>/<name>.log`, each line stamped in ms
 *   BENCH_PROVIDERS (hosted,own) the hub's provider in each scenario: `hosted` (the catalogue's together
 *                              mapping, `model:together`) and/or `own` (an own provider added through the admin
 *                              API at the same simulator, `model:bench-own`; the issue 40 goal is the same)
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Pool } from "undici";
import { buildAsNpmStart } from "../npm-start-hub.js";
import { type CallTiming, connect, type LoadRun, median, percentile, runCalls } from "./load.js";
import { ownCpuMs, type ServerProcess } from "./processes.js";
import {
  HUB_ROOT,
  NODE_FLAGS,
  type ProviderKind,
  type ProxyKind,
  repoRoot,
  type ServerSet,
  type Side,
  startSet,
} from "./servers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PACED_CALLS = Number(process.env.BENCH_CALLS ?? 256);
const ZERO_CALLS = Number(process.env.BENCH_ZERO_CALLS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
/** Full uncounted runs per side before the rounds; undefined: one short run (the default). */
const WARMUP_RUNS = process.env.BENCH_WARMUP_RUNS ? Number(process.env.BENCH_WARMUP_RUNS) : undefined;
const PACE = process.env.BENCH_PACE ?? "150-400:30-80";
const TOKENS = Number(process.env.BENCH_TOKENS ?? 32);
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? "paced-streamed,paced-json,zero-streamed,zero-json").split(","),
);
const PROVIDER_KINDS = (process.env.BENCH_PROVIDERS ?? "hosted,own").split(",") as ProviderKind[];
const PROXY: ProxyKind = process.env.BENCH_PROXY === "hono" ? "hono" : "bare";
const scenarioName = (paced: boolean, stream: boolean) =>
  `${paced ? "paced" : "zero"}-${stream ? "streamed" : "json"}`;

interface Measured {
  run: LoadRun;
  /** CPU ms per answered call of the side's process, of the simulator and of this load generator. */
  cpuPerCall: { hop: number; sim: number; loadGenerator: number };
}

const ms = (value: number, digits = 1) => value.toFixed(digits);
const range = (values: number[], digits = 1) =>
  `${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)}`;
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function measure(
  side: Side,
  pool: Pool,
  sim: ServerProcess,
  calls: number,
  stream: boolean,
): Promise<Measured> {
  const before = { hop: side.server.cpuMs(), sim: sim.cpuMs(), own: ownCpuMs() };
  const run = await runCalls(pool, { ...callsOf(side, stream), calls });
  const answered = Math.max(1, run.timings.length);
  return {
    run,
    cpuPerCall: {
      hop: (side.server.cpuMs() - before.hop) / answered,
      sim: (sim.cpuMs() - before.sim) / answered,
      loadGenerator: (ownCpuMs() - before.own) / answered,
    },
  };
}

function callsOf(side: Side, stream: boolean) {
  return {
    path: side.path,
    headers: side.headers,
    body: (index: number) => side.body(index, stream),
    concurrency: CONCURRENCY,
  };
}

interface RoundFigures {
  firstP50: number;
  firstP99: number;
  lastP50: number;
  lastP99: number;
  cpu: number;
  sim: number;
  loadGenerator: number;
  errors: number;
  firstError: string | undefined;
}

function figures({ run, cpuPerCall }: Measured): RoundFigures {
  const first = run.timings.map((t: CallTiming) => t.firstByteMs);
  const last = run.timings.map((t: CallTiming) => t.lastByteMs);
  return {
    firstP50: percentile(first, 0.5),
    firstP99: percentile(first, 0.99),
    lastP50: percentile(last, 0.5),
    lastP99: percentile(last, 0.99),
    cpu: cpuPerCall.hop,
    sim: cpuPerCall.sim,
    loadGenerator: cpuPerCall.loadGenerator,
    errors: run.errors,
    firstError: run.firstError,
  };
}

/** Runs one scenario: both sides, alternating, ROUNDS times; prints its table and returns its figures. */
async function scenario(
  title: string,
  sides: [Side, Side],
  sim: ServerProcess,
  calls: number,
  stream: boolean,
) {
  const rounds: Record<Side["name"], RoundFigures[]> = { hub: [], proxy: [] };
  // One pool of keep-alive connections per side for the whole scenario, opened and warmed (JIT, caches) by
  // a first run that is not counted: a run measures calls, not TCP handshakes.
  const pools = new Map(sides.map((side) => [side.name, connect(side.server.url, CONCURRENCY)]));
  try {
    for (const side of sides) {
      if (WARMUP_RUNS === undefined) {
        await measure(side, pools.get(side.name)!, sim, Math.min(calls, CONCURRENCY * 2), stream);
      } else {
        for (let run = 0; run < WARMUP_RUNS; run++)
          await measure(side, pools.get(side.name)!, sim, calls, stream);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
      for (const side of order) {
        rounds[side.name].push(figures(await measure(side, pools.get(side.name)!, sim, calls, stream)));
      }
    }
  } finally {
    for (const pool of pools.values()) await pool.close();
  }
  const hub = rounds.hub;
  const proxy = rounds.proxy;
  const added = (key: "firstP50" | "firstP99" | "lastP50" | "lastP99") =>
    hub.map((figure, round) => figure[key] - proxy[round]![key]);
  const cpuRatios = hub.map((figure, round) => figure.cpu / proxy[round]!.cpu);
  const row = (name: string, list: RoundFigures[]) =>
    `| ${name} | ${ms(median(list.map((f) => f.firstP50)))} | ${ms(median(list.map((f) => f.firstP99)))} | ${ms(median(list.map((f) => f.lastP50)))} | ${ms(median(list.map((f) => f.lastP99)))} | ${ms(median(list.map((f) => f.cpu)), 3)} | ${ms(median(list.map((f) => f.sim)), 3)} | ${ms(median(list.map((f) => f.loadGenerator)), 3)} | ${list.reduce((n, f) => n + f.errors, 0)} |`;
  const addedRow = (key: "firstP50" | "firstP99" | "lastP50" | "lastP99") =>
    `${ms(median(added(key)), 2)} (${range(added(key), 2)})`;
  const errors = [...hub, ...proxy].find((f) => f.firstError)?.firstError;
  const lines = [
    `### ${title}`,
    "",
    `${calls} calls per run, ${CONCURRENCY} in flight, ${ROUNDS} rounds; medians of the rounds, ms`,
    "",
    "| side | first byte p50 | first byte p99 | last byte p50 | last byte p99 | its CPU ms/call | sim CPU ms/call | load gen CPU ms/call | errors |",
    "|---|---|---|---|---|---|---|---|---|",
    row("hub", hub),
    row(sides[1].label, proxy),
    "",
    `added by the hub (median of the rounds' differences, and their range): first byte p50 ${addedRow("firstP50")}, p99 ${addedRow("firstP99")}; last byte p50 ${addedRow("lastP50")}, p99 ${addedRow("lastP99")}`,
    `hub CPU per call / ${sides[1].label}'s: ${median(cpuRatios).toFixed(2)}x (rounds ${range(cpuRatios, 2)})`,
    ...(errors ? [`first error: ${errors}`] : []),
    `load average now: ${loadAverage()}`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return {
    addedP50: Math.max(median(added("firstP50")), median(added("lastP50"))),
    addedP99: Math.max(median(added("firstP99")), median(added("lastP99"))),
    cpuRatio: median(cpuRatios),
  };
}

/** Runs `work` against a fresh set of servers, then stops them and says what the hub logged as going wrong. */
async function phase(pace: string | undefined, work: (set: ServerSet) => Promise<void>) {
  const set = await startSet(pace, { kinds: PROVIDER_KINDS, proxy: PROXY });
  try {
    await work(set);
  } finally {
    const warnings = readFileSync(set.hubLog, "utf8")
      .split("\n")
      .filter((line) => /"level":"(warn|error)"/.test(line));
    await set.stop();
    if (warnings.length > 0) {
      process.stdout.write(`hub log: ${warnings.length} warn/error lines, the first: ${warnings[0]}\n\n`);
    }
  }
}

async function main(): Promise<void> {
  // As `npm start` does: build what is stale, then run the built server.
  buildAsNpmStart(HUB_ROOT);
  /** The commit a checkout is at, and whether what was built holds uncommitted changes. */
  const commitOf = (root: string) => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", root, ...args], { stdio: "pipe" })
        .toString()
        .trim();
    try {
      const dirty = git("status", "--porcelain", "--", "apps", "packages") !== "";
      return `${git("log", "-1", "--format=%h %s")}${dirty ? ", with uncommitted changes in apps/ or packages/" : ""}`;
    } catch {
      return "not a git checkout";
    }
  };
  process.stdout.write(
    [
      "## bench:router",
      "",
      `hub: ${HUB_ROOT === repoRoot ? "this repository" : HUB_ROOT} (${commitOf(HUB_ROOT)}), built (apps/hub/dist), node ${NODE_FLAGS.join(" ")}, ${process.version}`,
      `bench: ${commitOf(repoRoot)}`,
      PROXY === "bare"
        ? `bare proxy: bench/router/bare-proxy.ts (node:http + undici), node ${NODE_FLAGS.join(" ")}`
        : `Hono proxy: bench/router/hono-proxy.ts (node:http, @hono/node-server, Hono + undici, no hub logic), node ${NODE_FLAGS.join(" ")}`,
      `${availableParallelism()} CPUs, load average at start: ${loadAverage()}`,
      "",
      "",
    ].join("\n"),
  );
  const goals: string[] = [];
  const wanted = (paced: boolean) =>
    [true, false].filter((stream) => SCENARIOS.has(scenarioName(paced, stream)));
  if (wanted(true).length > 0)
    await phase(PACE, async ({ sim, sides }) => {
      for (const kind of PROVIDER_KINDS) {
        for (const stream of wanted(true)) {
          const title = `${kind} provider, paced (${PACE}: first-token ms : tokens/s), ${stream ? `streamed, ${TOKENS} events` : "one JSON answer"}`;
          const result = await scenario(title, sides[kind], sim, PACED_CALLS, stream);
          goals.push(
            `${kind} provider, ${stream ? "streamed" : "JSON"}, paced, ${CONCURRENCY} in flight: added p50 ${ms(result.addedP50, 2)} ms (goal <= 2), p99 ${ms(result.addedP99, 2)} ms (goal <= 10) [the larger of first and last byte]`,
          );
        }
      }
    });
  if (wanted(false).length > 0)
    await phase(undefined, async ({ sim, sides }) => {
      for (const kind of PROVIDER_KINDS) {
        for (const stream of wanted(false)) {
          const title = `${kind} provider, zero latency, ${stream ? `streamed, ${TOKENS} events` : "one JSON answer"}`;
          const result = await scenario(title, sides[kind], sim, ZERO_CALLS, stream);
          goals.push(
            `${kind} provider, ${stream ? "streamed" : "JSON"}, zero latency: hub CPU per call ${result.cpuRatio.toFixed(2)}x the ${PROXY === "bare" ? "bare" : "Hono"} proxy's (goal <= 1.5x)`,
          );
        }
      }
    });
  process.stdout.write(
    [
      "### goals",
      "",
      ...goals.map((goal) => `- ${goal}`),
      "",
      `load average at the end: ${loadAverage()}`,
      "",
    ].join("\n"),
  );
}

await main();
