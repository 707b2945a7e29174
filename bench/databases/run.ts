/**
 * SQLite vs PostgreSQL, and one replica vs two (npm run bench:databases -w bench): the hub's read paths at
 * concurrency 64 against hub processes started as `npm start` starts them (the built server, its node
 * options: npm-start-hub.ts), all running for the whole benchmark:
 *   - `sqlite`: one process, DATA_DIR only (the default);
 *   - `pg x1`: one process on PostgreSQL (DATABASE_URL);
 *   - `pg x2`: two processes on the same PostgreSQL and DATA_DIR (replicas), 32 connections to each, as a
 *     load balancer would spread them (`pg x1` is the first of these two, alone).
 * Endpoints: model info (`GET /api/models/{id}`, 20 catalogue models in turn), the listing
 * (`GET /api/models?limit=20`) and `HEAD /{id}/resolve/main/README.md` (a demo repository's file). Each round
 * runs the three set-ups in a rotating order (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 4); printed
 * per set-up: median req/s and the rounds' spread, p50/p99, CPU ms per call of the hubs and of the PostgreSQL
 * server (every one of its processes, from /proc), errors; then the ratios pg x1 / sqlite and pg x2 / pg x1.
 * On a shared machine wall times swing with others' load; CPU per call is the steadier figure.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../../apps/hub/src/__fixtures__/postgres-server.js";
import { buildAsNpmStart, HUB_ROOT, npmStartServerArgs } from "../npm-start-hub.js";
import { httpLoad, type LoadCall, median } from "../repos/measure.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 64;

interface Hub {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The built server in a process of its own, as `npm start` runs it, configured through its environment. */
function startHub(env: Record<string, string>): Promise<Hub> {
  const child = spawn(process.execPath, npmStartServerArgs(HUB_ROOT), {
    cwd: HUB_ROOT,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "error", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let output = "";
    child.once("exit", (code) => reject(new Error(`a hub exited with ${code}: ${output}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        output = "";
        resolve({
          url: match[1]!,
          pid: child.pid!,
          stop: () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
  });
}

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;

function stat(pid: number | string): { ppid: number; cpuMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // Fields 4 (ppid), 14 and 15 (utime, stime) of /proc/<pid>/stat; the slice starts at field 3.
    return {
      ppid: Number(fields[1]),
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS,
    };
  } catch {
    return undefined;
  }
}

/** CPU used so far by the PostgreSQL server: its postmaster and every backend and worker under it. */
function postgresCpuMs(postmaster: number): number {
  let total = stat(postmaster)?.cpuMs ?? 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const process = stat(entry);
    if (process?.ppid === postmaster) total += process.cpuMs;
  }
  return total;
}

/** The postmaster of the server listening on `port`: the process whose command line says `-p <port>`. */
function postmasterOf(port: number): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.some((arg) => arg.endsWith("postgres")) && argv.join(" ").includes(`-p ${port}`)) {
        return Number(entry);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  throw new Error(`no PostgreSQL server process on port ${port}`);
}

interface Setup {
  name: string;
  hubs: Hub[];
  database: boolean;
}
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  hubCpu: number;
  dbCpu: number;
}

async function measure(setup: Setup, calls: LoadCall[], postmaster: number): Promise<Run> {
  const hubCpu = () => setup.hubs.reduce((sum, hub) => sum + (stat(hub.pid)?.cpuMs ?? 0), 0);
  const [hubBefore, dbBefore] = [hubCpu(), postgresCpuMs(postmaster)];
  const result = await httpLoad(
    setup.hubs.map((hub) => hub.url),
    calls,
    CONNECTIONS,
    SECONDS,
  );
  const [hubAfter, dbAfter] = [hubCpu(), postgresCpuMs(postmaster)];
  if (result.errors > 0) process.stdout.write(`  ${setup.name}: ${result.errors} errors\n`);
  const total = Math.max(1, result.requests);
  return {
    rps: result.requests / SECONDS,
    p50: result.p50ms,
    p99: result.p99ms,
    errors: result.errors,
    hubCpu: (hubAfter - hubBefore) / total,
    dbCpu: setup.database ? (dbAfter - dbBefore) / total : 0,
  };
}

async function main() {
  buildAsNpmStart();
  const dir = mkdtempSync(join(tmpdir(), "modelhub-bench-db-"));
  const postgres = await startPostgres();
  const hubs: Hub[] = [];
  try {
    const postmaster = postmasterOf(postgres.port);
    // The built-in catalogue on each (demo repositories included); the replicas share DATA_DIR (the blobs).
    const sqlite = await startHub({ DATA_DIR: join(dir, "sqlite") });
    hubs.push(sqlite);
    const onPostgres = { DATA_DIR: join(dir, "shared"), DATABASE_URL: postgres.url };
    const first = await startHub(onPostgres);
    hubs.push(first);
    const second = await startHub(onPostgres);
    hubs.push(second);
    const setups: Setup[] = [
      { name: "sqlite", hubs: [sqlite], database: false },
      { name: "pg x1", hubs: [first], database: true },
      { name: "pg x2", hubs: [first, second], database: true },
    ];

    const listed = (await (
      await fetch(`${sqlite.url}/api/models?limit=20&sort=downloads&gated=false`)
    ).json()) as Array<{
      id: string;
    }>;
    const ids = listed.map((model) => model.id);
    const endpoints: Record<string, LoadCall[]> = {
      "model info": ids.map((id) => ({ method: "GET", path: `/api/models/${id}` })),
      listing: [{ method: "GET", path: "/api/models?limit=20" }],
      "HEAD /resolve": ids.map((id) => ({ method: "HEAD", path: `/${id}/resolve/main/README.md` })),
    };
    for (const hub of hubs) {
      for (const call of Object.values(endpoints).flat()) {
        const response = await fetch(`${hub.url}${call.path}`, { method: call.method });
        if (!response.ok) throw new Error(`${call.path} on ${hub.url}: ${response.status}`);
      }
    }

    process.stdout.write(
      `concurrency ${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s; load: ${execFileSync("uptime").toString().trim()}\n\n`,
    );
    for (const [endpoint, calls] of Object.entries(endpoints)) {
      // Warm-up: every connection of every pool opened, every path's code compiled.
      for (const setup of setups)
        await httpLoad(
          setup.hubs.map((hub) => hub.url),
          calls,
          CONNECTIONS,
          2,
        );
      const runs = new Map<string, Run[]>(setups.map((setup) => [setup.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = setups.map((_, i) => setups[(i + round) % setups.length]!);
        for (const setup of order) runs.get(setup.name)!.push(await measure(setup, calls, postmaster));
      }
      const of = (name: string, pick: (run: Run) => number) => median(runs.get(name)!.map(pick));
      const rows = setups.map(({ name }) => {
        const list = runs.get(name)!;
        const rps = list.map((run) => run.rps);
        return `| ${name} | ${of(name, (r) => r.rps).toFixed(0)} | ${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)} | ${of(name, (r) => r.p50)} | ${of(name, (r) => r.p99)} | ${of(name, (r) => r.hubCpu).toFixed(3)} | ${of(name, (r) => r.dbCpu).toFixed(3)} | ${list.reduce((n, r) => n + r.errors, 0)} |`;
      });
      // Ratios per round (the set-ups of one round saw the same machine), then their median.
      const ratio = (a: string, b: string, pick: (run: Run) => number) =>
        median(runs.get(a)!.map((run, i) => pick(run) / pick(runs.get(b)![i]!))).toFixed(2);
      const cpu = (run: Run) => run.hubCpu + run.dbCpu;
      process.stdout.write(
        [
          `${endpoint}`,
          "| set-up | req/s | rounds | p50 ms | p99 ms | hub CPU ms/call | PostgreSQL CPU ms/call | errors |",
          "|---|---|---|---|---|---|---|---|",
          ...rows,
          `ratios: req/s pg x1 / sqlite ${ratio("pg x1", "sqlite", (r) => r.rps)}, pg x2 / pg x1 ${ratio("pg x2", "pg x1", (r) => r.rps)}; ` +
            `CPU per call (hubs + PostgreSQL) pg x1 / sqlite ${ratio("pg x1", "sqlite", cpu)}, pg x2 / pg x1 ${ratio("pg x2", "pg x1", cpu)}`,
          "",
        ].join("\n"),
      );
      process.stdout.write("\n");
    }
  } finally {
    await Promise.all(hubs.map((hub) => hub.stop()));
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
