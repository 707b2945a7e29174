/**
 * Hub benchmark (npm run bench:hub -w bench): autocannon on loopback against a real hub (started as `npm
 * start` starts it: ../npm-start-hub.ts), provider-sim and a minimal pipe proxy, each in its own process, all
 * started once and kept running for the whole benchmark.
 *   1. model info with the provider mapping expanded, and the inference snippets endpoint (concurrency 64);
 *   2. a streamed chat to one and the same provider-sim process: directly, through the bare pipe proxy (the
 *      floor of any proxy hop), and through the hub's router (goal: router <= 1.2x direct, no errors). The
 *      three alternate within each round, in a rotating order, so that all see the same machine load; the
 *      figure is the median round, with the spread of the rounds beside it. CPU time per call of every
 *      process (from /proc) is printed beside the wall time: on a shared machine it is the steadier figure.
 * BENCH_SECONDS (default 4) sets the length of each measured run, BENCH_ROUNDS (default 5) the number of
 * rounds, BENCH_SCENARIOS (default "1n,64n,1,64": concurrency, `n` for a chat answered in one JSON body)
 * which chat scenarios run, BENCH_API=0 skips part 1. The hub `npm start` runs does not forward provider-sim's
 * pacing headers, so the paced scenarios (a first-byte delay, a pause between events) are bench:router's.
 * BENCH_REPO_ROOT=<checkout> benchmarks another checkout's hub (before/after).
 * BENCH_HOP_NODE_OPTIONS (default: the node options `npm start` runs the hub with) are the node options of
 * the pipe proxy.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import autocannon from "autocannon";
import { NPM_START_STEPS, startNpmStartHub } from "../npm-start-hub.js";
import { untilIdle } from "../repos/measure.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 64;
const ADMIN_TOKEN = `bench-admin-${Date.now()}-token`;
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const STREAM_CHUNKS = "32";
const serveScript = fileURLToPath(new URL("./serve.ts", import.meta.url));

interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}
const servers: Server[] = [];

/**
 * V8 options of the two hop processes (the hub and the pipe proxy alike): those `npm start` runs the hub with
 * (apps/hub/README.md, docs/decisions/heap-growing-factor.md).
 * `BENCH_HOP_NODE_OPTIONS=""` measures V8's defaults.
 */
const HOP_NODE_OPTIONS = (process.env.BENCH_HOP_NODE_OPTIONS ?? NPM_START_STEPS.server.slice(0, -1).join(" "))
  .split(" ")
  .filter(Boolean);

function startServer(name: string, args: string[], nodeOptions: string[] = []): Promise<Server> {
  const child = spawn(
    process.execPath,
    [...nodeOptions, "--conditions=source", "--import", "tsx", serveScript, ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const server: Server = {
        name,
        url: (JSON.parse(line) as { url: string }).url,
        pid: child.pid!,
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      };
      servers.push(server);
      resolve(server);
    });
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, every thread) a process has used so far, in ms. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of /proc/<pid>/stat (utime, stime); the slice starts at field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function cpuSnapshot(): Map<string, number> {
  const snapshot = new Map<string, number>();
  for (const server of servers) snapshot.set(server.name, processCpuMs(server.pid));
  const own = process.cpuUsage();
  snapshot.set("load generator", (own.user + own.system) / 1000);
  return snapshot;
}

interface Run {
  name: string;
  connections: number;
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
  /** Wall time per call at this concurrency, from the throughput: connections / rps. */
  msPerCall: number;
  /** CPU ms per call, by process. */
  cpu: Map<string, number>;
}

async function measure(name: string, options: autocannon.Options, connections: number): Promise<Run> {
  const before = cpuSnapshot();
  const result = await autocannon({ ...options, connections, duration: SECONDS });
  const after = cpuSnapshot();
  const errors = result.errors + result.timeouts + result.non2xx;
  if (errors > 0) {
    process.stdout.write(
      `  ${name}: ${result.errors} connection errors, ${result.timeouts} timeouts, statuses ${JSON.stringify(result.statusCodeStats)}\n`,
    );
  }
  const cpu = new Map<string, number>();
  for (const [process, ms] of after)
    cpu.set(process, (ms - (before.get(process) ?? 0)) / result.requests.total);
  return {
    name,
    connections,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    requests: result.requests.total,
    errors,
    msPerCall: (connections * 1000) / result.requests.average,
    cpu,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[], digits = 2) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

function apiTable(runs: Run[]): string {
  const rows = runs.map(
    (r) =>
      `| ${r.name} | ${r.p50} | ${r.p99} | ${r.rps.toFixed(0)} | ${r.requests} | ${r.errors} | ${r.cpu.get("hub")!.toFixed(3)} |`,
  );
  return [
    "| endpoint | p50 ms | p99 ms | req/s | requests | errors | hub CPU ms/call |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

interface Target {
  name: string;
  /** The process doing the hop, whose CPU per call is shown ("" for the direct call). */
  proxy: string;
  call: autocannon.Options;
  /** The chat body, streamed or not. */
  body(stream: boolean): string;
}

interface Scenario {
  connections: number;
  /** The provider's time to its first byte. */
  delayMs: number;
  /** The provider's pause between events, like a model producing tokens (0: all at once). */
  intervalMs: number;
  /** A streamed chat (SSE) or one JSON answer. */
  stream: boolean;
}

async function streamedScenario(targets: Target[], { connections, delayMs, intervalMs, stream }: Scenario) {
  const delay: Record<string, string> = {
    ...(delayMs ? { "x-sim-fault": `delay:${delayMs}` } : {}),
    ...(intervalMs ? { "x-sim-stream-interval-ms": String(intervalMs) } : {}),
  };
  const bodies = new Map(targets.map((target) => [target.call, target.body(stream)]));
  const withDelay = (call: autocannon.Options) => ({
    ...call,
    body: bodies.get(call),
    headers: { ...call.headers, ...delay },
  });
  // Warm every path (JIT, keep-alive sockets, SQLite pages) before anything is measured.
  for (const target of targets) {
    await autocannon({ ...withDelay(target.call), connections, duration: WARM_UP_SECONDS });
  }
  const runs = new Map<string, Run[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // A rotating order, so that no target always runs first (or right after the same neighbour).
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const target of order) {
      runs.get(target.name)!.push(await measure(target.name, withDelay(target.call), connections));
    }
  }

  const perCall = (name: string) => runs.get(name)!.map((run) => run.msPerCall);
  const cpuOf = (name: string, process: string) =>
    median(runs.get(name)!.map((run) => run.cpu.get(process) ?? 0));
  const rows = targets.map((target) => {
    const list = runs.get(target.name)!;
    const proxyCpu = target.proxy ? cpuOf(target.name, target.proxy).toFixed(3) : "–";
    return `| ${target.name} | ${median(perCall(target.name)).toFixed(3)} | ${spread(perCall(target.name), 3)} | ${median(list.map((r) => r.p50))} | ${median(list.map((r) => r.p99))} | ${proxyCpu} | ${cpuOf(target.name, "provider-sim").toFixed(3)} | ${cpuOf(target.name, "load generator").toFixed(3)} | ${list.reduce((n, r) => n + r.errors, 0)} |`;
  });
  // Every process's CPU per call added up: on a saturated machine the wall-time ratio tends to this one.
  const totalCpu = (name: string) =>
    [...runs.get(name)![0]!.cpu.keys()]
      .filter(
        (process) =>
          process === "provider-sim" ||
          process === "load generator" ||
          process === targets.find((t) => t.name === name)!.proxy,
      )
      .reduce((sum, process) => sum + cpuOf(name, process), 0);
  const cpuRatio = (a: string, b: string) =>
    `${(totalCpu(a) / totalCpu(b)).toFixed(2)}× (${totalCpu(a).toFixed(3)} / ${totalCpu(b).toFixed(3)} ms)`;
  // The hop's own CPU per call beside the pipe proxy's: what the router adds, steadier than wall time.
  const hopRatio = (name: string) => {
    const hop = cpuOf(name, "hub");
    const floor = cpuOf("pipe proxy", "pipe proxy");
    return `${(hop / floor).toFixed(2)}× (${hop.toFixed(3)} / ${floor.toFixed(3)} ms)`;
  };
  const ratio = (a: string, b: string) => {
    const ratios = perCall(a).map((value, round) => value / perCall(b)[round]!);
    return `${median(ratios).toFixed(2)}× (rounds ${spread(ratios)})`;
  };
  process.stdout.write(
    [
      `${stream ? `streamed chat (${STREAM_CHUNKS} events)` : "chat (one JSON answer)"}, concurrency ${connections}, provider answers after ${delayMs} ms${intervalMs ? `, then an event every ${intervalMs} ms` : ""}, ${ROUNDS} rounds of ${SECONDS}s`,
      "| path | ms/call (median) | rounds | p50 ms | p99 ms | proxy CPU ms/call | sim CPU ms/call | load gen CPU ms/call | errors |",
      "|---|---|---|---|---|---|---|---|---|",
      ...rows,
      `router / direct: ${ratio("router", "direct")}; goal <= 1.2x`,
      `pipe proxy / direct (the floor of one hop): ${ratio("pipe proxy", "direct")}`,
      `router / pipe proxy: ${ratio("router", "pipe proxy")}; goal <= 1.1x`,
      `router /v1 / pipe proxy: ${ratio("router /v1", "pipe proxy")}; goal <= 1.1x`,
      `hop CPU per call / pipe proxy's: router ${hopRatio("router")}, router /v1 ${hopRatio("router /v1")}`,
      `CPU per call of all processes (load generator + hop + provider-sim): router / direct ${cpuRatio("router", "direct")}, pipe proxy / direct ${cpuRatio("pipe proxy", "direct")}`,
      "",
      "",
    ].join("\n"),
  );
}

/**
 * `BENCH_SCENARIOS`: comma-separated `concurrency[+first-byte delay ms][~ms between events][n]`, `n` for a
 * chat answered in one JSON body rather than streamed.
 */
function scenarios(): Scenario[] {
  const spec = process.env.BENCH_SCENARIOS ?? `1n,${CONNECTIONS}n,1,${CONNECTIONS}`;
  return spec.split(",").map((item) => {
    const match = /^(\d+)(?:\+(\d+))?(?:~(\d+))?(n?)$/.exec(item.trim());
    if (!match) throw new Error(`BENCH_SCENARIOS: "${item}" is not concurrency[+delay ms][~interval ms][n]`);
    if (match[2] || match[3]) {
      throw new Error(
        `BENCH_SCENARIOS: "${item}" paces provider-sim through headers the hub started as \`npm start\` does not forward; paced scenarios are bench:router's`,
      );
    }
    return {
      connections: Number(match[1]),
      delayMs: Number(match[2] ?? 0),
      intervalMs: Number(match[3] ?? 0),
      stream: match[4] !== "n",
    };
  });
}

async function main(): Promise<void> {
  const sim = await startServer("provider-sim", ["sim"]);
  const started = await startNpmStartHub({
    ADMIN_TOKEN,
    PROVIDER_BASE_URLS: INFERENCE_PROVIDERS.map((provider) => `${provider}=${sim.url}/${provider}`).join(","),
  });
  const hub: Server = { name: "hub", url: started.url, pid: started.pid, stop: started.stop };
  servers.push(hub);
  // A fresh hub scans its seeded repositories in the background: measured meanwhile, that is the calls' CPU.
  await untilIdle(hub.pid);
  const pipe = await startServer("pipe proxy", ["pipe", sim.url], HOP_NODE_OPTIONS);
  const issued = await fetch(`${hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  const { token } = (await issued.json()) as { token: string };
  // The benchmark's model is gated: the router asks for the grant its files need (as the operator gives it).
  const whoami = (await (
    await fetch(`${hub.url}/api/whoami-v2`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { name: string };
  const granted = await fetch(`${hub.url}/api/models/${MODEL}/user-access-request/grant`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ user: whoami.name }),
  });
  if (!granted.ok)
    throw new Error(`granting ${MODEL} to the bench's user: ${granted.status} ${await granted.text()}`);
  process.stdout.write(
    `hub ${hub.url} (started as \`npm start\`${process.env.BENCH_REPO_ROOT ? ` in ${process.env.BENCH_REPO_ROOT}` : ""}), provider-sim ${sim.url}, pipe proxy ${pipe.url} (node ${HOP_NODE_OPTIONS.join(" ") || "(V8 defaults)"}); ${SECONDS}s per run\n\n`,
  );

  if (process.env.BENCH_API !== "0") {
    const api: Run[] = [];
    for (const [name, url] of [
      [
        "model info + expand[]=inferenceProviderMapping",
        `${hub.url}/api/models/${MODEL}?expand[]=inferenceProviderMapping`,
      ],
      ["inference snippets (together)", `${hub.url}/api/models/${MODEL}/snippets?provider=together`],
    ] as const) {
      await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS });
      api.push(await measure(name, { url }, CONNECTIONS));
    }
    process.stdout.write(`concurrency ${CONNECTIONS}\n${apiTable(api)}\n\n`);
  }

  const messages = [{ role: "user", content: "What is the capital of France?" }];
  // The provider's own model id (direct, pipe proxy, /router/together) or the hub's with the provider (/v1).
  const providerChat = (stream: boolean) =>
    JSON.stringify({ model: "meta-llama/Llama-3.3-70B-Instruct-Turbo", messages, stream });
  const hubChat = (stream: boolean) =>
    JSON.stringify({ model: "meta-llama/Llama-3.3-70B-Instruct:together", messages, stream });
  const streamHeaders = { "Content-Type": "application/json", "x-sim-stream-chunks": STREAM_CHUNKS };
  const callerHeaders = { ...streamHeaders, Authorization: "Bearer hf_benchDirectCaller" };
  const hubHeaders = { ...streamHeaders, Authorization: `Bearer ${token}` };
  const targets: Target[] = [
    {
      name: "direct",
      proxy: "",
      call: { url: `${sim.url}/together/v1/chat/completions`, method: "POST", headers: callerHeaders },
      body: providerChat,
    },
    {
      name: "pipe proxy",
      proxy: "pipe proxy",
      call: { url: `${pipe.url}/together/v1/chat/completions`, method: "POST", headers: callerHeaders },
      body: providerChat,
    },
    {
      name: "router",
      proxy: "hub",
      call: { url: `${hub.url}/router/together/v1/chat/completions`, method: "POST", headers: hubHeaders },
      body: providerChat,
    },
    {
      name: "router /v1",
      proxy: "hub",
      call: { url: `${hub.url}/v1/chat/completions`, method: "POST", headers: hubHeaders },
      body: hubChat,
    },
  ];
  for (const scenario of scenarios()) await streamedScenario(targets, scenario);
}

try {
  await main();
} finally {
  // The proxies first, so that they do not report the simulator's disappearance as provider failures.
  for (const server of servers.reverse()) await server.stop();
}
