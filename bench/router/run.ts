/**
 * Router benchmark (npm run bench:router -w bench): the hub's `POST /v1/chat/completions` beside two reverse
 * proxies in front of the same provider simulator, each in its own process: the bare proxy (bare-proxy.ts,
 * node:http + undici, ~30 lines: the least a proxy can do) and the Hono proxy (hono-proxy.ts: the hub's HTTP
 * stack with none of the hub). The hub runs as `npm start` runs it (the built `apps/hub/dist/server.js` with
 * npm start's node options, configured by environment, providers pointed at the simulator by
 * PROVIDER_BASE_URLS), reached only through its public HTTP surface.
 *   1. paced: provider-sim answers like a hosted model (first token after 150-400 ms, then 30-80 tokens/s;
 *      each call's draw fixed by its `seed`, so that every side gets the same calls), 64 calls in flight,
 *      streamed then not: added latency of the hub over each proxy to the first and to the last byte;
 *   2. zero latency: the simulator answers at once: CPU per call of the hub over each proxy's.
 * Every side is first warmed up to its steady state (runs, not counted, until its CPU per call, and for a
 * paced scenario its first-byte p50, stop falling); then the three alternate within each round, the order
 * rotated every round, so that hub/bare, hub/Hono and Hono/bare come from the same rounds. CPU time is the
 * scheduler's per-thread account (schedstat, ns), not /proc/<pid>/stat's 10 ms ticks.
 *   BENCH_ROUNDS (3 paced, 5 zero latency)  rounds per scenario
 *   BENCH_CALLS (256)          calls per paced run (4 per connection at 64 in flight)
 *   BENCH_ZERO_CALLS (1500)    calls per zero-latency run
 *   BENCH_CONCURRENCY (64)     calls in flight
 *   BENCH_RAMP_MS (500 paced, 0 zero latency)  a run's opening calls spread over this many ms (0: all sent
 *                              at once, a synchronized burst of 64 that no steady traffic has)
 *   BENCH_PACE (150-400:30-80) provider-sim's --pace: first-token ms : tokens/s
 *   BENCH_TOKENS (32)          content events per streamed answer (tokens of a paced non-streamed one)
 *   BENCH_HUB_ROOT             another checkout whose built hub runs (default: this repository)
 *   BENCH_HUB_NODE_OPTIONS     more node flags for the hub only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 *   BENCH_PROXY_NODE_OPTIONS   the same for the two proxies (their profiles beside the hub's)
 *   BENCH_SCENARIOS            the scenarios to run (default all): paced-streamed,paced-json,zero-streamed,zero-json
 *   BENCH_WARMUP_TOLERANCE (0.1) a side is steady once two successive runs' CPU per call are each no more than
 *                              this fraction below the run before (and, paced, first-byte p50 no more than 1 ms)
 *   BENCH_WARMUP_MIN (3), BENCH_WARMUP_MAX (8 zero latency, 3 paced)  warm-up runs per side
 *   BENCH_WARMUP_RUNS          a fixed number of warm-up runs per side instead (0: none)
 *   BENCH_STDOUT_DIR           each process's stdout after its URL line (e.g. --trace-opt, --trace-gc from
 *                              BENCH_HUB_NODE_OPTIONS) appended to `<dir>/<name>.log`, each line stamped in ms;
 *                              with --trace-opt the tables count each side's TurboFan compiles per run
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
import { cpuBetween, ownCpuMs, type ServerProcess } from "./processes.js";
import {
  HUB_ROOT,
  NODE_FLAGS,
  type ProviderKind,
  repoRoot,
  type ServerSet,
  type Side,
  startSet,
} from "./servers.js";

/** Rounds per scenario: a paced run takes ~4 s, a zero-latency one ~1-2 s. */
const rounds = (paced: boolean) => Number(process.env.BENCH_ROUNDS ?? (paced ? 3 : 5));
const PACED_CALLS = Number(process.env.BENCH_CALLS ?? 256);
const ZERO_CALLS = Number(process.env.BENCH_ZERO_CALLS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
/**
 * A run's opening calls spread over this many ms. A paced call lasts ~0.85 s, so 64 callers calling back to
 * back start ~13 ms apart once under way; sent all at once, every side serves the 64 in one turn of its event
 * loop and undici writes none of their provider calls before that turn ends, so the first wait for the work
 * of the last (../results/2026-11-30-router-firstbyte.md). 0 measures that burst.
 */
const rampMs = (paced: boolean) => Number(process.env.BENCH_RAMP_MS ?? (paced ? 500 : 0));
/** A fixed number of warm-up runs per side; undefined: until the side is steady. */
const WARMUP_RUNS = process.env.BENCH_WARMUP_RUNS ? Number(process.env.BENCH_WARMUP_RUNS) : undefined;
const WARMUP_TOLERANCE = Number(process.env.BENCH_WARMUP_TOLERANCE ?? 0.1);
const WARMUP_MIN = Number(process.env.BENCH_WARMUP_MIN ?? 3);
/** Paced, a side's CPU per call swings by tens of % from run to run: its warm-up is cut at 3 runs (~12 s). */
const warmUpMax = (paced: boolean) => Number(process.env.BENCH_WARMUP_MAX ?? (paced ? 3 : 8));
/** Successive runs that must each be steady against the run before (one alone let compiles go on). */
const STEADY_STEPS = 2;
/** How far a paced run's first-byte p50 may fall below the run before it for the side to count as steady. */
const PACED_P50_TOLERANCE_MS = 1;
const PACE = process.env.BENCH_PACE ?? "150-400:30-80";
const TOKENS = Number(process.env.BENCH_TOKENS ?? 32);
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? "paced-streamed,paced-json,zero-streamed,zero-json").split(","),
);
const PROVIDER_KINDS = (process.env.BENCH_PROVIDERS ?? "hosted,own").split(",") as ProviderKind[];
const scenarioName = (paced: boolean, stream: boolean) =>
  `${paced ? "paced" : "zero"}-${stream ? "streamed" : "json"}`;

type SideName = Side["name"];
/** The order of the sides in round r is ORDERS[r % 6]: each side runs first, second and third alike. */
const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
  [1, 0, 2],
  [0, 2, 1],
] as const;

interface Measured {
  run: LoadRun;
  /** CPU ms per answered call of the side's process, of the simulator and of this load generator. */
  cpuPerCall: { hop: number; sim: number; loadGenerator: number };
  /** The side's main thread's share of its CPU in the run (the rest: GC, compiler, libuv threads). */
  mainShare: number;
  /** TurboFan compiles, deoptimizations and full GCs of the side during the run (0 without --trace-*). */
  compiles: number;
  deopts: number;
  majorGcs: number;
  /** Connections the load generator opened to the side during the run (the side closed idle ones). */
  opened: number;
  /** Threads of the side or the simulator that ended during the run: their CPU is not counted. */
  endedThreads: number;
}

const ms = (value: number, digits = 1) => value.toFixed(digits);
const range = (values: number[], digits = 1) =>
  `${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)}`;
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** The side's pool of keep-alive connections and how many connections it has opened so far. */
interface Connection {
  pool: Pool;
  opened: number;
}

function open(side: Side): Connection {
  const connection = { pool: connect(side.server.url, CONCURRENCY), opened: 0 };
  connection.pool.on("connect", () => connection.opened++);
  return connection;
}

async function measure(
  side: Side,
  connection: Connection,
  sim: ServerProcess,
  calls: number,
  stream: boolean,
  paced: boolean,
): Promise<Measured> {
  const traced = side.server.traced();
  const opened = connection.opened;
  const before = { hop: side.server.threadTimes(), sim: sim.threadTimes(), own: ownCpuMs() };
  const run = await runCalls(connection.pool, { ...callsOf(side, stream), calls, rampMs: rampMs(paced) });
  const hop = cpuBetween(side.server.pid, before.hop, side.server.threadTimes());
  const simCpu = cpuBetween(sim.pid, before.sim, sim.threadTimes());
  const loadGenerator = ownCpuMs() - before.own;
  const answered = Math.max(1, run.timings.length);
  const tracedAfter = side.server.traced();
  return {
    run,
    cpuPerCall: {
      hop: hop.ms / answered,
      sim: simCpu.ms / answered,
      loadGenerator: loadGenerator / answered,
    },
    mainShare: hop.mainMs / Math.max(hop.ms, 1e-9),
    compiles: tracedAfter.compiles - traced.compiles,
    deopts: tracedAfter.deopts - traced.deopts,
    majorGcs: tracedAfter.majorGcs - traced.majorGcs,
    opened: connection.opened - opened,
    endedThreads: hop.endedThreads + simCpu.endedThreads,
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
  /** Each answered call's times by its number (undefined for a call that failed), to pair with another side's. */
  calls: (CallTiming | undefined)[];
  firstP50: number;
  firstP99: number;
  lastP50: number;
  lastP99: number;
  cpu: number;
  mainShare: number;
  sim: number;
  loadGenerator: number;
  compiles: number;
  deopts: number;
  majorGcs: number;
  opened: number;
  endedThreads: number;
  errors: number;
  firstError: string | undefined;
}

function figures(measured: Measured): RoundFigures {
  const { run, cpuPerCall } = measured;
  const first = run.timings.map((t: CallTiming) => t.firstByteMs);
  const last = run.timings.map((t: CallTiming) => t.lastByteMs);
  const calls: (CallTiming | undefined)[] = [];
  for (const timing of run.timings) calls[timing.index] = timing;
  return {
    calls,
    firstP50: percentile(first, 0.5),
    firstP99: percentile(first, 0.99),
    lastP50: percentile(last, 0.5),
    lastP99: percentile(last, 0.99),
    cpu: cpuPerCall.hop,
    mainShare: measured.mainShare,
    sim: cpuPerCall.sim,
    loadGenerator: cpuPerCall.loadGenerator,
    compiles: measured.compiles,
    deopts: measured.deopts,
    majorGcs: measured.majorGcs,
    opened: measured.opened,
    endedThreads: measured.endedThreads,
    errors: run.errors,
    firstError: run.firstError,
  };
}

/** A run after which the side counts as steady: its CPU per call (and paced, its p50) stopped falling. */
function steady(previous: RoundFigures, current: RoundFigures, paced: boolean): boolean {
  const cpuSteady = current.cpu >= previous.cpu * (1 - WARMUP_TOLERANCE);
  return cpuSteady && (!paced || current.firstP50 >= previous.firstP50 - PACED_P50_TOLERANCE_MS);
}

/**
 * Warms the sides up, in turn as the rounds will run them (so that each idles between its runs as it will
 * then), each until it is steady (at least WARMUP_MIN runs, at most warmUpMax): runs not counted. Returns
 * each side's warm-up runs.
 */
async function warmUp(
  sides: readonly Side[],
  connections: Map<SideName, Connection>,
  sim: ServerProcess,
  calls: number,
  stream: boolean,
  paced: boolean,
): Promise<Map<SideName, RoundFigures[]>> {
  const runs = new Map(sides.map((side) => [side.name, [] as RoundFigures[]]));
  const done = (side: Side) => {
    const list = runs.get(side.name)!;
    if (WARMUP_RUNS !== undefined) return list.length >= WARMUP_RUNS;
    if (list.length >= warmUpMax(paced)) return true;
    return (
      list.length >= Math.max(WARMUP_MIN, STEADY_STEPS + 1) &&
      list.slice(-STEADY_STEPS - 1).every((run, i, last) => i === 0 || steady(last[i - 1]!, run, paced))
    );
  };
  for (let pending = sides.filter((side) => !done(side)); pending.length > 0; ) {
    for (const side of pending)
      runs
        .get(side.name)!
        .push(figures(await measure(side, connections.get(side.name)!, sim, calls, stream, paced)));
    pending = pending.filter((side) => !done(side));
  }
  return runs;
}

type Key = "firstP50" | "firstP99" | "lastP50" | "lastP99";

/** Runs one scenario: the three sides, warmed up, then in rotated order for its rounds; prints its table. */
async function scenario(
  title: string,
  sides: readonly [Side, Side, Side],
  sim: ServerProcess,
  calls: number,
  stream: boolean,
  paced: boolean,
) {
  const measured = new Map(sides.map((side) => [side.name, [] as RoundFigures[]]));
  // One pool of keep-alive connections per side for the whole scenario: a run measures calls, not TCP
  // handshakes (but a side that closes idle connections between its runs pays for new ones: counted).
  const connections = new Map(sides.map((side) => [side.name, open(side)]));
  let warm: Map<SideName, RoundFigures[]>;
  try {
    warm = await warmUp(sides, connections, sim, calls, stream, paced);
    for (let round = 0; round < rounds(paced); round++) {
      for (const index of ORDERS[round % ORDERS.length]!) {
        const side = sides[index]!;
        measured
          .get(side.name)!
          .push(figures(await measure(side, connections.get(side.name)!, sim, calls, stream, paced)));
      }
    }
  } finally {
    for (const { pool } of connections.values()) await pool.close();
  }
  const of = (name: SideName) => measured.get(name)!;
  const added = (a: SideName, b: SideName, key: Key) =>
    of(a).map((figure, round) => figure[key] - of(b)[round]![key]);
  // Call i carries seed i on every side, so it gets the same pace from the simulator on each: the difference
  // call for call is what the side added to that call. The difference of two sides' percentiles also moves with
  // which calls land next to the percentile: paced answers end 0.5 to 1.4 s after they start, ~3.5 ms apart
  // around the median at 256 calls, so a few ms of the simulator's own jitter reorder them.
  const paired = (a: SideName, b: SideName, key: "firstByteMs" | "lastByteMs", p: number) =>
    of(a).map((figure, round) => {
      const other = of(b)[round]!.calls;
      const differences: number[] = [];
      figure.calls.forEach((call, index) => {
        const same = other[index];
        if (call && same) differences.push(call[key] - same[key]);
      });
      return percentile(differences, p);
    });
  const cpuRatios = (a: SideName, b: SideName) =>
    of(a).map((figure, round) => figure.cpu / of(b)[round]!.cpu);
  const med = (list: RoundFigures[], key: keyof RoundFigures, digits = 1) =>
    ms(median(list.map((f) => f[key] as number)), digits);
  const total = (list: RoundFigures[], key: "compiles" | "deopts" | "opened" | "errors" | "endedThreads") =>
    list.reduce((n, f) => n + f[key], 0);
  const row = (side: Side) => {
    const list = of(side.name);
    return `| ${side.label} | ${med(list, "firstP50")} | ${med(list, "firstP99")} | ${med(list, "lastP50")} | ${med(list, "lastP99")} | ${med(list, "cpu", 3)} | ${ms(median(list.map((f) => f.mainShare)) * 100, 0)}% | ${med(list, "sim", 3)} | ${med(list, "loadGenerator", 3)} | ${list.map((f) => f.compiles).join(" ")} | ${list.map((f) => f.majorGcs).join(" ")} | ${list.map((f) => f.opened).join(" ")} | ${total(list, "errors")} |`;
  };
  const addedLine = (a: SideName, b: SideName) => {
    const cell = (key: Key) => `${ms(median(added(a, b, key)), 2)} (${range(added(a, b, key), 2)})`;
    return `first byte p50 ${cell("firstP50")}, p99 ${cell("firstP99")}; last byte p50 ${cell("lastP50")}, p99 ${cell("lastP99")}`;
  };
  const pairedLine = (a: SideName, b: SideName) => {
    const cell = (key: "firstByteMs" | "lastByteMs", p: number) =>
      `${ms(median(paired(a, b, key, p)), 2)} (${range(paired(a, b, key, p), 2)})`;
    return `first byte p50 ${cell("firstByteMs", 0.5)}, p99 ${cell("firstByteMs", 0.99)}; last byte p50 ${cell("lastByteMs", 0.5)}, p99 ${cell("lastByteMs", 0.99)}`;
  };
  const ratioLine = (a: SideName, b: SideName) =>
    `${median(cpuRatios(a, b)).toFixed(2)}x (rounds ${range(cpuRatios(a, b), 2)})`;
  const warmLine = (side: Side) => {
    const list = warm.get(side.name)!;
    const p50s = paced ? `, first-byte p50 ${list.map((f) => ms(f.firstP50)).join(" → ")} ms` : "";
    return `- ${side.label}: ${list.length} runs, CPU ms/call ${list.map((f) => ms(f.cpu, 3)).join(" → ")}${p50s}, main thread ${list.map((f) => ms(f.mainShare * 100, 0)).join(" ")}%, compiles ${list.map((f) => f.compiles).join(" ")}, full GCs ${list.map((f) => f.majorGcs).join(" ")}, connections opened ${list.map((f) => f.opened).join(" ")}`;
  };
  const errors = [...measured.values()].flat().find((f) => f.firstError)?.firstError;
  const ended = [...measured.values()].flat().reduce((n, f) => n + f.endedThreads, 0);
  const lines = [
    `### ${title}`,
    "",
    `${calls} calls per run, ${CONCURRENCY} in flight${rampMs(paced) > 0 ? ` (opening calls spread over ${rampMs(paced)} ms)` : " (opening calls all at once)"}, ${rounds(paced)} rounds (order rotated); medians of the rounds, ms`,
    "",
    "| side | first byte p50 | first byte p99 | last byte p50 | last byte p99 | its CPU ms/call | main thread | sim CPU ms/call | load gen CPU ms/call | compiles per round | full GCs per round | connections opened per round | errors |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...sides.map(row),
    "",
    "warm-up (runs not counted, until steady):",
    ...sides.map(warmLine),
    "",
    `added by the hub over the bare proxy (median of the rounds' differences, and their range): ${addedLine("hub", "bare")}`,
    `added by the hub over the Hono proxy: ${addedLine("hub", "hono")}`,
    `added by the Hono proxy over the bare proxy: ${addedLine("hono", "bare")}`,
    // At zero latency the calls are not paced, so a call's twin on another side is just another call.
    ...(paced
      ? [
          `added call for call (each call against the same call, same seed, on the other side in the same round; p50 and p99 of those differences, median of the rounds and their range): hub over bare ${pairedLine("hub", "bare")}`,
          `  hub over Hono ${pairedLine("hub", "hono")}`,
          `  Hono over bare ${pairedLine("hono", "bare")}`,
        ]
      : []),
    `CPU per call: hub / bare ${ratioLine("hub", "bare")}; hub / Hono ${ratioLine("hub", "hono")}; Hono / bare ${ratioLine("hono", "bare")}`,
    ...(ended > 0 ? [`threads that ended during the rounds (their CPU not counted): ${ended}`] : []),
    ...(errors ? [`first error: ${errors}`] : []),
    `load average now: ${loadAverage()}`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const worst = (a: SideName, b: SideName, p: "50" | "99") =>
    Math.max(median(added(a, b, `firstP${p}`)), median(added(a, b, `lastP${p}`)));
  const worstPaired = (a: SideName, b: SideName, p: number) =>
    Math.max(median(paired(a, b, "firstByteMs", p)), median(paired(a, b, "lastByteMs", p)));
  return {
    added: (a: SideName, b: SideName) => ({ p50: worst(a, b, "50"), p99: worst(a, b, "99") }),
    addedPerCall: (a: SideName, b: SideName) => ({
      p50: worstPaired(a, b, 0.5),
      p99: worstPaired(a, b, 0.99),
    }),
    cpuRatio: (a: SideName, b: SideName) => median(cpuRatios(a, b)),
  };
}

/** Runs `work` against a fresh set of servers, then stops them and says what the hub logged as going wrong. */
async function phase(pace: string | undefined, work: (set: ServerSet) => Promise<void>) {
  const set = await startSet(pace, { kinds: PROVIDER_KINDS, withHonoProxy: true });
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
      `bare proxy: bench/router/bare-proxy.ts (node:http + undici), node ${NODE_FLAGS.join(" ")}`,
      `Hono proxy: bench/router/hono-proxy.ts (node:http, @hono/node-server, Hono + undici, no hub logic), node ${NODE_FLAGS.join(" ")}`,
      `${availableParallelism()} CPUs, load average at start: ${loadAverage()}`,
      "",
      "",
    ].join("\n"),
  );
  const started = performance.now();
  const goals: string[] = [];
  const wanted = (paced: boolean) =>
    [true, false].filter((stream) => SCENARIOS.has(scenarioName(paced, stream)));
  if (wanted(true).length > 0)
    await phase(PACE, async ({ sim, sides, bareProxy, honoProxy }) => {
      for (const kind of PROVIDER_KINDS) {
        for (const stream of wanted(true)) {
          const title = `${kind} provider, paced (${PACE}: first-token ms : tokens/s), ${stream ? `streamed, ${TOKENS} events` : "one JSON answer"}`;
          const result = await scenario(
            title,
            [sides[kind][0], bareProxy, honoProxy!],
            sim,
            PACED_CALLS,
            stream,
            true,
          );
          const added = (a: SideName, b: SideName) =>
            `${ms(result.added(a, b).p50, 2)} / ${ms(result.added(a, b).p99, 2)} ms`;
          const perCall = (a: SideName, b: SideName) =>
            `${ms(result.addedPerCall(a, b).p50, 2)} / ${ms(result.addedPerCall(a, b).p99, 2)} ms`;
          goals.push(
            `${kind} provider, ${stream ? "streamed" : "JSON"}, paced, ${CONCURRENCY} in flight, added p50 / p99 [the larger of first and last byte]: hub over bare ${added("hub", "bare")} (goal <= 2 / 10), call for call ${perCall("hub", "bare")}; hub over Hono ${added("hub", "hono")}, call for call ${perCall("hub", "hono")}; Hono over bare ${added("hono", "bare")}, call for call ${perCall("hono", "bare")}`,
          );
        }
      }
    });
  if (wanted(false).length > 0)
    await phase(undefined, async ({ sim, sides, bareProxy, honoProxy }) => {
      for (const kind of PROVIDER_KINDS) {
        for (const stream of wanted(false)) {
          const title = `${kind} provider, zero latency, ${stream ? `streamed, ${TOKENS} events` : "one JSON answer"}`;
          const result = await scenario(
            title,
            [sides[kind][0], bareProxy, honoProxy!],
            sim,
            ZERO_CALLS,
            stream,
            false,
          );
          goals.push(
            `${kind} provider, ${stream ? "streamed" : "JSON"}, zero latency, CPU per call: hub / bare ${result.cpuRatio("hub", "bare").toFixed(2)}x (goal <= 1.5x); hub / Hono ${result.cpuRatio("hub", "hono").toFixed(2)}x; Hono / bare ${result.cpuRatio("hono", "bare").toFixed(2)}x (the stack before any hub logic)`,
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
      `load average at the end: ${loadAverage()}; the scenarios took ${ms((performance.now() - started) / 1000, 0)} s`,
      "",
    ].join("\n"),
  );
}

await main();
