/** Measuring helpers of the file benchmarks (bench/repos, bench/blobs): memory of a process, timed transfers. */

import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, readFileSync, statSync } from "node:fs";
import { Agent, request } from "node:http";

/** A process's resident memory now (MiB). */
export function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

/** CPU time a process has used so far (user + system, seconds; its threads included). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The direct children of a process (nginx's workers), from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU time a process and its descendants (nginx's workers, a hub's child processes) have used so far (s). */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  for (const each of [pid, ...childrenOf(pid)]) {
    try {
      total += each === pid ? cpuSeconds(each) : treeCpuSeconds(each);
    } catch {
      // A child that exited meanwhile: its time is lost to this count (none of the servers fork per request).
    }
  }
  return total;
}

/**
 * Waits until a process has been idle (under 2% of a core) for two seconds in a row, at most `maxSeconds`:
 * a hub that has just started scans its seeded repositories in the background, which would be counted as
 * the CPU of the requests measured meanwhile.
 */
export async function untilIdle(pid: number, maxSeconds = 180): Promise<void> {
  let quietSeconds = 0;
  for (let second = 0; second < maxSeconds && quietSeconds < 2; second++) {
    const before = treeCpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    quietSeconds = treeCpuSeconds(pid) - before < 0.02 ? quietSeconds + 1 : 0;
  }
}

/** Runs `work` and reports its wall time and the CPU time `pid` (or every one of `pid`) spent meanwhile (s). */
export async function timedWithCpu(
  pid: number | number[],
  work: () => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  const pids = Array.isArray(pid) ? pid : [pid];
  const cpu = () => pids.reduce((sum, each) => sum + treeCpuSeconds(each), 0);
  const before = cpu();
  const wall = await timed(work);
  return { wall, cpu: cpu() - before };
}

/** Samples a process's resident memory every 20 ms; `stop()` gives the peak (MiB). */
export function rssSampler(pid: number) {
  let peak = rss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rss(pid));
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** GETs a URL and discards the body; resolves with the byte count. */
export function download(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${response.statusCode}`)),
      );
    })
      .on("error", reject)
      .end();
  });
}

export function upload(url: string, file: string, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const put = request(
      url,
      { method: "PUT", headers: { ...headers, "Content-Length": statSync(file).size } },
      (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`PUT ${response.statusCode}`)),
        );
      },
    );
    put.on("error", (error) => reject(new Error(`PUT ${url}: ${error.message}`)));
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(put);
  });
}

export async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface Server {
  child: ChildProcess;
  info: Record<string, string>;
}

/** Starts `script` (TypeScript, through tsx) in a child process; resolves with the JSON line it prints first. */
export function serveChild(script: string, ...args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve({ child, info: JSON.parse(chunk.toString()) }));
    child.once("exit", (code) => reject(new Error(`serve.ts ${args[0]} exited with ${code}`)));
  });
}

export type HubApi = (path: string, init?: RequestInit) => Promise<Response>;

/** Calls the hub's API with the bench token; any answer but 2xx stops the bench with its body. */
export function hubApi(url: string, token: string): HubApi {
  return async (path, init = {}) => {
    const headers = { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) };
    const response = await fetch(`${url}${path}`, { ...init, headers });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response;
  };
}

/** Creates the model repository `name` (owner/name) on the hub. */
export async function createRepo(api: HubApi, name: string): Promise<void> {
  await api("/api/repos/create", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
}

/**
 * The LFS upload URL for round `round` of an upload bench. Rounds after the first announce the same bytes
 * under another oid, so the hub streams and hashes them again (and refuses them at the end) instead of
 * answering that the object is already stored: each round costs what a fresh upload costs.
 */
export async function lfsUploadUrl(api: HubApi, repo: string, oid: string, size: number, round: number) {
  const response = await api(`/${repo}.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: { "Content-Type": "application/vnd.git-lfs+json" },
    body: JSON.stringify({
      operation: "upload",
      objects: [{ oid: round === 0 ? oid : "0".repeat(63) + round, size }],
    }),
  });
  const batch = (await response.json()) as { objects: { actions?: { upload: { href: string } } }[] };
  const href = batch.objects[0]?.actions?.upload.href;
  if (!href) throw new Error(`round ${round}: the hub offered no upload URL for ${repo}`);
  return href;
}

/** Writes `mib` MiB of pseudo-random bytes (a 1 MiB random block, varied per MiB); resolves with the sha256. */
export async function writeRandomFile(path: string, mib: number): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  const block = randomBytes(1 << 20);
  for (let i = 0; i < mib; i++) {
    block.writeUInt32LE(i, 0);
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return hash.digest("hex");
}

/**
 * The end of a benchmark server's script (serve.ts): runs `start`, which prints the server's JSON line and
 * returns its close; serves until SIGTERM. A failed start prints the error and exits 1.
 */
export function serveUntilTerm(start: () => Promise<() => Promise<void>>): void {
  start().then(
    (close) => {
      process.once("SIGTERM", () => void close().then(() => process.exit(0)));
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}

export interface LoadCall {
  method: string;
  /** Appended to the base URL. */
  path: string;
  headers?: Record<string, string>;
}

/**
 * `concurrency` loops of requests over keep-alive connections for `seconds`: loop i talks to `bases[i %
 * bases.length]` (a load balancer's round robin) and sends `calls` in turn. node:http rather than autocannon:
 * HEAD answers carry a Content-Length but no body, which autocannon's parser waits for. Latencies of the 200
 * answers (ms); anything else counts as an error.
 */
export async function httpLoad(bases: string[], calls: LoadCall[], concurrency: number, seconds: number) {
  const agents = bases.map(() => new Agent({ keepAlive: true, maxSockets: concurrency }));
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const one = (target: number, call: LoadCall) =>
    new Promise<void>((resolve) => {
      const start = process.hrtime.bigint();
      const options = { method: call.method, headers: call.headers, agent: agents[target] };
      request(`${bases[target]}${call.path}`, options, (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
          else errors++;
          resolve();
        });
      })
        .on("error", () => {
          errors++;
          resolve();
        })
        .end();
    });
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      for (let i = loop; Date.now() < end; i++) await one(loop % bases.length, calls[i % calls.length]!);
    }),
  );
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(1));
  return {
    requests: latencies.length,
    errors,
    p50ms: at(0.5),
    p99ms: at(0.99),
    reqPerSec: Math.round(latencies.length / seconds),
  };
}

/** A `bench` user on a fresh hub (made with its admin token) and a write token of theirs. */
export async function benchToken(hubUrl: string, adminToken: string): Promise<string> {
  const admin = hubApi(hubUrl, adminToken);
  await admin("/api/admin/users", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  const issued = await admin("/api/admin/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: "bench", role: "write", name: "bench" }),
  });
  return ((await issued.json()) as { token: string }).token;
}

/** `bench/small` with a config.json, as bench:repos' api part reads. */
export async function smallRepo(api: HubApi) {
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

/** `bench/big` on a hub, with `file` (sha256 `oid`) committed as its LFS file big.bin, and a config.json if given. */
export async function bigRepo(api: HubApi, file: string, oid: string, size: number, config?: Buffer) {
  await createRepo(api, "bench/big");
  const href = await lfsUploadUrl(api, "bench/big", oid, size, 0);
  await upload(href, file);
  await api("/api/models/bench/big/commit/main", {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "big" } },
      { key: "lfsFile", value: { path: "big.bin", algo: "sha256", oid, size } },
      ...(config
        ? [
            {
              key: "file",
              value: { path: "config.json", content: config.toString("base64"), encoding: "base64" },
            },
          ]
        : []),
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
}
