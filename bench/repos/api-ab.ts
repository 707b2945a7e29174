/**
 * Before/after of the API's CPU per request, side by side in one run: `HEAD /resolve` of a small file and
 * `GET /api/models/{id}` (64 connections, as bench:repos' api part) against two or more hubs, each a checkout
 * (e.g. `git archive` of a commit) started as `npm start` starts it, all running at once and measured in
 * alternated rounds, so that the load of a shared machine weighs on every side alike. CPU per request comes
 * from /proc (the hub's process tree), the steadier figure when the machine is loaded.
 *
 *   AB_ROOTS=/tmp/before,/tmp/after [AB_NAMES=before,after] [BENCH_ROUNDS=3] [BENCH_SECONDS=5] \
 *     node --conditions=source --import tsx repos/api-ab.ts
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { hubSettingsEnvironment, NPM_START_STEPS } from "../npm-start-hub.js";
import {
  benchToken,
  createRepo,
  type HubApi,
  httpLoad,
  hubApi,
  type LoadCall,
  median,
  treeCpuSeconds,
  untilIdle,
} from "./measure.js";

const ROOTS = (process.env.AB_ROOTS ?? "").split(",").filter(Boolean);
if (ROOTS.length < 2) throw new Error("AB_ROOTS: give two or more checkouts, comma-separated.");
const NAMES = process.env.AB_NAMES?.split(",") ?? ROOTS;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 64;
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

interface Hub {
  name: string;
  url: string;
  pid: number;
  calls: Record<string, LoadCall>;
  stop(): void;
}

/** A checkout's hub, built if stale and started with `npm start`'s node options, on a fresh data directory. */
async function startHub(root: string, name: string): Promise<Hub> {
  execFileSync(process.execPath, [...NPM_START_STEPS.build], { cwd: root, stdio: "inherit" });
  const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-ab-"));
  const child = spawn(process.execPath, [...NPM_START_STEPS.server], {
    cwd: root,
    env: { ...process.env, ...hubSettingsEnvironment(dataDir, { ADMIN_TOKEN }) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`the hub in ${root} exited with ${code} before listening`)),
    );
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const running = /^Modelhub is running at (\S+)/.exec(line);
      if (running) resolve(running[1]!.replace(/\/$/, ""));
    });
  });
  const token = await benchToken(url, ADMIN_TOKEN);
  await smallRepo(hubApi(url, token));
  const headers = { Authorization: `Bearer ${token}` };
  return {
    name,
    url,
    pid: child.pid!,
    calls: {
      "HEAD /resolve (small file)": {
        method: "HEAD",
        path: "/bench/small/resolve/main/config.json",
        headers,
      },
      "GET /api/models/{id}": { method: "GET", path: "/api/models/bench/small", headers },
    },
    stop() {
      child.kill("SIGTERM");
      child.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
    },
  };
}

/** `bench/small` with a config.json, as bench:repos' api part reads. */
async function smallRepo(api: HubApi) {
  await createRepo(api, "bench/small");
  const committed = await api("/api/models/bench/small/commit/main", {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "small" } },
      {
        key: "file",
        value: {
          path: "config.json",
          content: Buffer.from('{"model_type":"llama"}').toString("base64"),
          encoding: "base64",
        },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  if (!committed.ok) throw new Error(`commit failed: ${committed.status} ${await committed.text()}`);
}

const hubs: Hub[] = [];
try {
  for (const [i, root] of ROOTS.entries()) hubs.push(await startHub(root, NAMES[i] ?? root));
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
    `\n${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, hubs alternated; load average during the run ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`,
  );
  console.log("| call | hub | CPU ms/request (median; rounds) | req/s | p50 ms | p99 ms | p99/p50 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [key, list] of figures) {
    const [callName, hubName] = key.split("\t");
    const p50 = median(list.map((f) => f.p50));
    const p99 = median(list.map((f) => f.p99));
    console.log(
      `| ${callName} | ${hubName} | ${median(list.map((f) => f.cpuMs)).toFixed(3)} (${list.map((f) => f.cpuMs.toFixed(3)).join(", ")}) | ${median(list.map((f) => f.rps))} | ${p50} | ${p99} | ${(p99 / p50).toFixed(1)} |`,
    );
  }
} finally {
  for (const hub of hubs) hub.stop();
}
