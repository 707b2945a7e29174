/**
 * Router benchmark (npm run bench:router -w bench): the hub's `POST /v1/chat/completions` beside a bare
 * reverse proxy (bare-proxy.ts: node:http + undici, ~30 lines) in front of the same provider simulator, each in
 * its own process. The hub runs as `npm start` runs it (the built `apps/hub/dist/server.js` under node
 * --max-semi-space-size=64, configured by environment, providers pointed at the simulator by PROVIDER_BASE_URLS), reached only through its public HTTP surface.
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
 *   BENCH_SCENARIOS            the scenarios to run (default all): paced-streamed,paced-json,zero-streamed,zero-json
 *   BENCH_PROVIDERS (hosted,own) the hub's provider in each scenario: `hosted` (the catalogue's together
 *                              mapping, `model:together`) and/or `own` (an own provider added through the admin
 *                              API at the same simulator, `model:bench-own`; the issue 40 goal is the same)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import type { Pool } from "undici";
import { type CallTiming, connect, type LoadRun, median, percentile, runCalls } from "./load.js";
import { ownCpuMs, type ServerProcess, startServer } from "./processes.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PACED_CALLS = Number(process.env.BENCH_CALLS ?? 256);
const ZERO_CALLS = Number(process.env.BENCH_ZERO_CALLS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const PACE = process.env.BENCH_PACE ?? "150-400:30-80";
const TOKENS = Number(process.env.BENCH_TOKENS ?? 32);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const HUB_ROOT = process.env.BENCH_HUB_ROOT || repoRoot;
/** V8's young generation as `npm start` sets it, for the hub and (to compare like with like) the proxy. */
const NODE_FLAGS = ["--max-semi-space-size=64"];
/** Flags for the hub alone (a profiler): split on spaces. */
const HUB_EXTRA_FLAGS = (process.env.BENCH_HUB_NODE_OPTIONS ?? "").split(" ").filter(Boolean);
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? "paced-streamed,paced-json,zero-streamed,zero-json").split(","),
);
const PROVIDER_KINDS = (process.env.BENCH_PROVIDERS ?? "hosted,own").split(",") as ProviderKind[];
type ProviderKind = "hosted" | "own";
/** The own provider the benchmark adds (an OpenAI-compatible server: the simulator's together API). */
const OWN_PROVIDER = "bench-own";
const scenarioName = (paced: boolean, stream: boolean) =>
  `${paced ? "paced" : "zero"}-${stream ? "streamed" : "json"}`;
const ADMIN_TOKEN = `bench-router-admin-${process.pid}-${Date.now()}`;
/** The catalogue's model and its together mapping (the provider's own id, for the bare proxy). */
const HUB_MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const PROVIDER = "together";
const PROVIDER_MODEL = "meta-llama/Llama-3.3-70B-Instruct-Turbo";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const messages = [{ role: "user", content: "What is the capital of France?" }];

interface Side {
  name: "hub" | "bare proxy";
  server: ServerProcess;
  path: string;
  headers: Record<string, string>;
  /** The chat of call `index`; its seed fixes the simulator's pace for it, the same on both sides. */
  body(index: number, stream: boolean): string;
}

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
  const rounds: Record<Side["name"], RoundFigures[]> = { hub: [], "bare proxy": [] };
  // One pool of keep-alive connections per side for the whole scenario, opened and warmed (JIT, caches) by
  // a first run that is not counted: a run measures calls, not TCP handshakes.
  const pools = new Map(sides.map((side) => [side.name, connect(side.server.url, CONCURRENCY)]));
  try {
    for (const side of sides) {
      await measure(side, pools.get(side.name)!, sim, Math.min(calls, CONCURRENCY * 2), stream);
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
  const proxy = rounds["bare proxy"];
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
    row("bare proxy", proxy),
    "",
    `added by the hub (median of the rounds' differences, and their range): first byte p50 ${addedRow("firstP50")}, p99 ${addedRow("firstP99")}; last byte p50 ${addedRow("lastP50")}, p99 ${addedRow("lastP99")}`,
    `hub CPU per call / bare proxy's: ${median(cpuRatios).toFixed(2)}x (rounds ${range(cpuRatios, 2)})`,
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

/** A simulator, a hub and a bare proxy in front of it; `pace` undefined for a simulator that answers at once. */
async function startSet(pace: string | undefined) {
  const started: ServerProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-router-"));
  const stop = async () => {
    // The hop processes first, so that they do not see the simulator go away under a call.
    for (const server of started.reverse()) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const sim = await startServer("provider-sim", [
      "--conditions=source",
      "--import",
      "tsx",
      join(repoRoot, "packages/provider-sim/src/cli.ts"),
      "--port",
      "0",
      "--quiet",
      "--stream-chunks",
      String(TOKENS),
      ...(pace ? ["--pace", pace] : []),
    ]);
    started.push(sim);
    const hubLog = join(dataDir, "hub.log");
    const hub = await startServer(
      "hub",
      [...NODE_FLAGS, ...HUB_EXTRA_FLAGS, join(HUB_ROOT, "apps/hub/dist/server.js")],
      {
        env: {
          ...process.env,
          // Every provider at the simulator, as an operator points providers at a gateway.
          PROVIDER_BASE_URLS: INFERENCE_PROVIDERS.map((name) => `${name}=${sim.url}/${name}`).join(","),
          DATA_DIR: join(dataDir, "data"),
          ADMIN_TOKEN,
          PORT: "0",
          // A key, as an operator configures a real provider (the simulator takes any key).
          TOGETHER_API_KEY: "bench-together-key",
        },
        stderr: openSync(hubLog, "a"),
      },
    );
    started.push(hub);
    const proxy = await startServer("bare proxy", [
      ...NODE_FLAGS,
      "--import",
      "tsx",
      here("./bare-proxy.ts"),
      `${sim.url}/${PROVIDER}`,
    ]);
    started.push(proxy);
    const token = await hubToken(hub.url);
    await addOwnProvider(hub.url, sim.url);
    const bareProxy: Side = {
      name: "bare proxy",
      server: proxy,
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json", authorization: "Bearer bench-together-key" },
      body: (seed, stream) => JSON.stringify({ model: PROVIDER_MODEL, messages, stream, seed }),
    };
    const hubSide = (suffix: string): Side => ({
      name: "hub",
      server: hub,
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: (seed, stream) => JSON.stringify({ model: `${HUB_MODEL}:${suffix}`, messages, stream, seed }),
    });
    const sides: Record<ProviderKind, [Side, Side]> = {
      hosted: [hubSide(PROVIDER), bareProxy],
      own: [hubSide(OWN_PROVIDER), bareProxy],
    };
    for (const kind of PROVIDER_KINDS) await checkSeedReachesProvider(sides[kind][0], sim.url);
    return { sim, sides, hubLog, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A user token for the router, and the grant the (gated) model needs, through the admin API. */
async function hubToken(hubUrl: string): Promise<string> {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const issued = await fetch(`${hubUrl}/api/admin/tokens`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name: "bench-router" }),
  });
  if (!issued.ok) throw new Error(`issuing a token: ${issued.status} ${await issued.text()}`);
  const { token } = (await issued.json()) as { token: string };
  const whoami = await fetch(`${hubUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
  const { name } = (await whoami.json()) as { name: string };
  const granted = await fetch(`${hubUrl}/api/models/${HUB_MODEL}/user-access-request/grant`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ user: name }),
  });
  if (!granted.ok) throw new Error(`granting ${HUB_MODEL}: ${granted.status} ${await granted.text()}`);
  return token;
}

/**
 * The own provider, as an administrator adds one (admin API): the simulator's together API as an
 * OpenAI-compatible server with its key, serving the benchmark's model under the provider's own id.
 */
async function addOwnProvider(hubUrl: string, simUrl: string): Promise<void> {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  for (const [path, body] of [
    ["", { baseUrl: `${simUrl}/${PROVIDER}/v1`, apiKey: "bench-together-key", healthPath: "/__sim/health" }],
    ["/models", { model: HUB_MODEL, servedName: PROVIDER_MODEL }],
  ] as const) {
    const answer = await fetch(`${hubUrl}/api/admin/own-providers/${OWN_PROVIDER}${path}`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`adding the own provider: ${answer.status} ${await answer.text()}`);
  }
}

/** The pairing of calls rests on the hub passing `seed` on: checked once, through the simulator's log. */
async function checkSeedReachesProvider(hub: Side, simUrl: string): Promise<void> {
  const seed = 987_654;
  const answer = await fetch(`${hub.server.url}${hub.path}`, {
    method: "POST",
    headers: hub.headers,
    body: hub.body(seed, false),
  });
  if (!answer.ok) throw new Error(`a chat through the hub failed: ${answer.status} ${await answer.text()}`);
  await answer.text();
  const log = (await (await fetch(`${simUrl}/__sim/requests`)).json()) as { json?: { seed?: unknown } }[];
  if (log.at(-1)?.json?.seed !== seed) {
    process.stdout.write(
      "warning: the hub did not pass the chat's seed on; the hub and the proxy get different pace draws\n",
    );
  }
}

/** Runs `work` against a fresh set of servers, then stops them and says what the hub logged as going wrong. */
async function phase(
  pace: string | undefined,
  work: (set: Awaited<ReturnType<typeof startSet>>) => Promise<void>,
) {
  const set = await startSet(pace);
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
  execFileSync(process.execPath, [join(HUB_ROOT, "scripts/build.mjs"), "--if-stale"], {
    cwd: HUB_ROOT,
    stdio: "inherit",
  });
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
            `${kind} provider, ${stream ? "streamed" : "JSON"}, zero latency: hub CPU per call ${result.cpuRatio.toFixed(2)}x the bare proxy's (goal <= 1.5x)`,
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
