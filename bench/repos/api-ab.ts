/**
 * The API's CPU per request, side by side in one run: `HEAD /resolve` of a small file and
 * `GET /api/models/{id}` (64 connections, as bench:repos' api part) against one or more hubs, each a checkout
 * (this one by default; e.g. a `git archive` of a commit for a before/after) started as `npm start` starts it,
 * and beside them the floors (issue 42): the same answers replayed with no logic by a bare node:http server
 * and by the hub's HTTP stack alone (Hono + @hono/node-server), each its own process (`api-floor.ts`). All
 * run at once and are measured in alternated rounds, so that the load of a shared machine weighs on every
 * side alike. CPU per request comes from /proc (each server's process tree), the steadier figure when the
 * machine is loaded.
 *
 *   [AB_ROOTS=/tmp/before,/tmp/after] [AB_NAMES=before,after] [AB_FLOORS=0] [BENCH_ROUNDS=3] \
 *     [BENCH_SECONDS=5] npm run bench:api -w bench
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { NPM_START_STEPS, REPO_ROOT, startNpmStartHub } from "../npm-start-hub.js";
import type { RecordedAnswer } from "./api-floor.js";
import {
  benchToken,
  httpLoad,
  hubApi,
  type LoadCall,
  median,
  smallRepo,
  treeCpuSeconds,
  untilIdle,
} from "./measure.js";

const ROOTS = process.env.AB_ROOTS ? process.env.AB_ROOTS.split(",").filter(Boolean) : [REPO_ROOT];
const NAMES = process.env.AB_NAMES?.split(",") ?? (process.env.AB_ROOTS ? ROOTS : ["hub"]);
const FLOORS = process.env.AB_FLOORS !== "0";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 64;
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

/** A server measured: a hub or a floor. */
interface Hub {
  name: string;
  url: string;
  pid: number;
  calls: Record<string, LoadCall>;
  stop(): void;
}

/** A checkout's hub, built if stale and started as `npm start` starts it, on a fresh data directory. */
async function startHub(root: string, name: string): Promise<Hub> {
  const hub = await startNpmStartHub({ ADMIN_TOKEN }, { root });
  const { url } = hub;
  const token = await benchToken(url, ADMIN_TOKEN);
  await smallRepo(hubApi(url, token));
  const headers = { Authorization: `Bearer ${token}` };
  return {
    name,
    url,
    pid: hub.pid,
    calls: {
      "HEAD /resolve (small file)": {
        method: "HEAD",
        path: "/bench/small/resolve/main/config.json",
        headers,
      },
      "GET /api/models/{id}": { method: "GET", path: "/api/models/bench/small", headers },
    },
    stop() {
      void hub.stop();
    },
  };
}

/** The hub's answer to `call`, as sent: status, headers in its spelling and order, body bytes. */
function recordAnswer(url: string, call: LoadCall): Promise<RecordedAnswer> {
  // node:http writes these itself on every answer, the floors' as the hub's.
  const writtenByNode = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
  return new Promise((resolve, reject) => {
    request(`${url}${call.path}`, { method: call.method, headers: call.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i]!;
          if (!writtenByNode.has(name.toLowerCase())) headers.push([name, response.rawHeaders[i + 1]!]);
        }
        resolve({
          method: call.method,
          path: call.path,
          status: response.statusCode!,
          headers,
          bodyBase64: Buffer.concat(chunks).toString("base64"),
        });
      });
    })
      .on("error", reject)
      .end();
  });
}

/**
 * Checks that a floor answers `call` as the hub did: the same status and body bytes, the same header names
 * with values of the same sizes (a request id differs per answer, its size does not). Header names are
 * compared without case: Hono's `Headers` writes them in lower case, which costs no bytes.
 */
async function sameAnswer(hub: Hub, floor: Hub, hubAnswer: RecordedAnswer): Promise<void> {
  const call = Object.values(hub.calls).find((each) => each.path === hubAnswer.path)!;
  const floorAnswer = await recordAnswer(floor.url, call);
  const shape = (answer: RecordedAnswer) =>
    answer.headers
      .map(([name, value]) => `${name.toLowerCase()}: ${value.length} bytes`)
      .sort()
      .join("\n");
  const problems = [
    floorAnswer.status !== hubAnswer.status && `status ${floorAnswer.status}, the hub's ${hubAnswer.status}`,
    floorAnswer.bodyBase64 !== hubAnswer.bodyBase64 && "another body",
    shape(floorAnswer) !== shape(hubAnswer) &&
      `headers\n${shape(floorAnswer)}\nthe hub's\n${shape(hubAnswer)}`,
  ].filter(Boolean);
  if (problems.length > 0) {
    throw new Error(
      `${floor.name} ${call.method} ${call.path} answers unlike the hub: ${problems.join("; ")}`,
    );
  }
}

/** A floor (`api-floor.ts`) replaying `answers`, with the hub's node options; the same calls as `like`. */
async function startFloor(kind: "bare" | "hono", answersFile: string, like: Hub): Promise<Hub> {
  const script = fileURLToPath(new URL("api-floor.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    [NPM_START_STEPS.server[0], "--import", "tsx", script, kind, answersFile],
    { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the ${kind} floor exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const running = /^Floor is running at (\S+)/.exec(line);
      if (running) resolve(running[1]!);
    });
  });
  return {
    name: kind === "bare" ? "bare floor" : "Hono floor",
    url,
    pid: child.pid!,
    calls: like.calls,
    stop: () => child.kill("SIGTERM"),
  };
}

const hubs: Hub[] = [];
let answersDir: string | undefined;
try {
  for (const [i, root] of ROOTS.entries()) hubs.push(await startHub(root, NAMES[i] ?? root));
  const hubCount = hubs.length;
  if (FLOORS) {
    const first = hubs[0]!;
    const answers = [];
    for (const call of Object.values(first.calls)) answers.push(await recordAnswer(first.url, call));
    answersDir = mkdtempSync(join(tmpdir(), "modelhub-bench-floor-"));
    const answersFile = join(answersDir, "answers.json");
    writeFileSync(answersFile, JSON.stringify(answers));
    hubs.push(await startFloor("hono", answersFile, first), await startFloor("bare", answersFile, first));
    for (const floor of hubs.slice(hubCount))
      for (const answer of answers) await sameAnswer(first, floor, answer);
  }
  for (const hub of hubs) await untilIdle(hub.pid);
  // Warm-up, not counted: the first seconds of a fresh process are the JIT's (the first round read 2-5x).
  for (const hub of hubs)
    for (const call of Object.values(hub.calls)) await httpLoad([hub.url], [call], CONNECTIONS, 3);
  const callNames = Object.keys(hubs[0]!.calls);
  const figures = new Map<string, { cpuMs: number; p50: number; p99: number; rps: number }[]>();
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const callName of callNames) {
      for (const hub of hubs.map((_, i) => hubs[(i + round) % hubs.length]!)) {
        const before = treeCpuSeconds(hub.pid);
        const result = await httpLoad([hub.url], [hub.calls[callName]!], CONNECTIONS, SECONDS);
        const cpu = treeCpuSeconds(hub.pid) - before;
        if (result.errors > 0) throw new Error(`${hub.name} ${callName}: ${result.errors} errors`);
        const key = `${callName}\t${hub.name}`;
        figures.set(key, [
          ...(figures.get(key) ?? []),
          {
            cpuMs: (cpu * 1000) / result.requests,
            p50: result.p50ms,
            p99: result.p99ms,
            rps: result.reqPerSec,
          },
        ]);
        loads.push(loadavg()[0]!);
      }
    }
  }
  console.log(
    `\n${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, servers alternated; load average during the run ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`,
  );
  console.log("| call | server | CPU ms/request (median; rounds) | req/s | p50 ms | p99 ms | p99/p50 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [key, list] of figures) {
    const [callName, hubName] = key.split("\t");
    const p50 = median(list.map((f) => f.p50));
    const p99 = median(list.map((f) => f.p99));
    console.log(
      `| ${callName} | ${hubName} | ${median(list.map((f) => f.cpuMs)).toFixed(3)} (${list.map((f) => f.cpuMs.toFixed(3)).join(", ")}) | ${median(list.map((f) => f.rps))} | ${p50} | ${p99} | ${(p99 / p50).toFixed(1)} |`,
    );
  }
  if (FLOORS) {
    const cpu = (callName: string, server: string) =>
      median(figures.get(`${callName}\t${server}`)!.map((f) => f.cpuMs));
    const rps = (callName: string, server: string) =>
      median(figures.get(`${callName}\t${server}`)!.map((f) => f.rps));
    console.log(
      "\n| call | hub | CPU: hub / Hono floor | CPU: Hono floor / bare floor | req/s: hub / Hono floor | req/s: Hono floor / bare floor |",
    );
    console.log("|---|---|---|---|---|---|");
    for (const callName of callNames) {
      for (const hub of hubs.slice(0, hubCount)) {
        console.log(
          `| ${callName} | ${hub.name} | ${(cpu(callName, hub.name) / cpu(callName, "Hono floor")).toFixed(2)} | ${(cpu(callName, "Hono floor") / cpu(callName, "bare floor")).toFixed(2)} | ${(rps(callName, hub.name) / rps(callName, "Hono floor")).toFixed(2)} | ${(rps(callName, "Hono floor") / rps(callName, "bare floor")).toFixed(2)} |`,
        );
      }
    }
  }
} finally {
  for (const hub of hubs) hub.stop();
  if (answersDir) rmSync(answersDir, { recursive: true, force: true });
}
