/**
 * Hub benchmark (npm run bench:hub -w bench): autocannon on loopback against a real hub and provider-sim, each
 * in its own process.
 *   1. model info with the provider mapping expanded, and the inference snippets endpoint (concurrency 64);
 *   2. a streamed chat through the hub's router to provider-sim, side by side with the same call made to
 *      provider-sim directly (goal: routed <= 1.2x direct, no errors).
 * BENCH_SECONDS (default 5) sets the length of each measured run, BENCH_ROUNDS (default 3) the number of
 * direct/routed rounds.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 64;
const ADMIN_TOKEN = `bench-admin-${Date.now()}-token`;
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const STREAM_CHUNKS = "32";
const serveScript = fileURLToPath(new URL("./serve.ts", import.meta.url));
const children: ChildProcess[] = [];

function startServer(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", serveScript, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) =>
      resolve((JSON.parse(line) as { url: string }).url),
    );
  });
}

interface Run {
  name: string;
  p50: number;
  p99: number;
  mean: number;
  rps: number;
  requests: number;
  errors: number;
}

async function measure(
  name: string,
  options: autocannon.Options,
  connections = CONNECTIONS,
  warmUp = true,
): Promise<Run> {
  // A short warm-up (JIT, SQLite page cache, keep-alive sockets), then the measured run.
  if (warmUp) await autocannon({ ...options, connections, duration: 2 });
  const result = await autocannon({ ...options, connections, duration: SECONDS });
  if (result.errors + result.timeouts + result.non2xx > 0) {
    process.stdout.write(
      `  ${name}: ${result.errors} connection errors, ${result.timeouts} timeouts, statuses ${JSON.stringify(result.statusCodeStats)}\n`,
    );
  }
  return {
    name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function table(runs: Run[]): string {
  const header =
    "| run | p50 ms | p99 ms | mean ms | req/s | requests | errors |\n|---|---|---|---|---|---|---|";
  const rows = runs.map(
    (r) =>
      `| ${r.name} | ${r.p50} | ${r.p99} | ${r.mean.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.requests} | ${r.errors} |`,
  );
  return [header, ...rows].join("\n");
}

async function main(): Promise<void> {
  const simUrl = await startServer(["sim"]);
  const hubUrl = await startServer(["hub", simUrl, ADMIN_TOKEN]);
  const issued = await fetch(`${hubUrl}/api/admin/tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  const { token } = (await issued.json()) as { token: string };
  process.stdout.write(
    `hub ${hubUrl}, provider-sim ${simUrl}, ${CONNECTIONS} connections, ${SECONDS}s per run\n\n`,
  );

  const api = [
    await measure("model info + expand[]=inferenceProviderMapping", {
      url: `${hubUrl}/api/models/${MODEL}?expand[]=inferenceProviderMapping`,
    }),
    await measure("inference snippets (together)", {
      url: `${hubUrl}/api/models/${MODEL}/snippets?provider=together`,
    }),
  ];
  process.stdout.write(`${table(api)}\n\n`);

  const chat = JSON.stringify({
    model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    messages: [{ role: "user", content: "What is the capital of France?" }],
    stream: true,
  });
  const streamHeaders = { "Content-Type": "application/json", "x-sim-stream-chunks": STREAM_CHUNKS };
  const directCall: autocannon.Options = {
    url: `${simUrl}/together/v1/chat/completions`,
    method: "POST",
    headers: { ...streamHeaders, Authorization: "Bearer hf_benchDirectCaller" },
    body: chat,
  };
  const routedCall: autocannon.Options = {
    url: `${hubUrl}/router/together/v1/chat/completions`,
    method: "POST",
    headers: { ...streamHeaders, Authorization: `Bearer ${token}` },
    body: chat,
  };
  // Direct and routed runs alternate, round after round, so that both see the same machine load; the ratio is
  // taken per round (time per call, from the throughput at a fixed concurrency) and the median round is the
  // figure. The last scenario adds 50 ms before the provider answers, as a real provider takes to start.
  const scenarios = [
    { connections: 1, delayMs: 0 },
    { connections: CONNECTIONS, delayMs: 0 },
    { connections: CONNECTIONS, delayMs: 50 },
  ];
  for (const { connections, delayMs } of scenarios) {
    const delay: Record<string, string> = delayMs ? { "x-sim-fault": `delay:${delayMs}` } : {};
    const runs: Run[] = [];
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const withDelay = (call: autocannon.Options) => ({ ...call, headers: { ...call.headers, ...delay } });
      const direct = await measure(`direct #${round}`, withDelay(directCall), connections, round === 1);
      const routed = await measure(`router #${round}`, withDelay(routedCall), connections, round === 1);
      runs.push(direct, routed);
      ratios.push(direct.rps / routed.rps);
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    const errors = runs.reduce((sum, run) => sum + run.errors, 0);
    process.stdout.write(
      `streamed chat (${STREAM_CHUNKS} events), concurrency ${connections}, provider answers after ${delayMs} ms: provider-sim directly vs through the hub's router\n${table(runs)}\n`,
    );
    process.stdout.write(
      `median time per call, router / direct: ${median.toFixed(2)}x (rounds: ${ratios.map((r) => r.toFixed(2)).join(", ")}; goal <= 1.2x); errors: ${errors}\n\n`,
    );
  }
}

try {
  await main();
} finally {
  // The hub first, so that it does not report the simulator's disappearance as provider failures.
  for (const child of children.reverse()) child.kill("SIGTERM");
}
