/**
 * Mirror benchmark (npm run bench:mirror -w bench; issue 34): an upstream hub and a mirror hub in front of
 * it, each run as `npm start` runs it (the built apps/hub/dist/server.js with npm start's node options,
 * configured by environment) in its own process, on loopback. Between them a counting proxy
 * (counting-proxy.ts) stands for the network: the mirror's UPSTREAM_URL and the upstream's PUBLIC_URL (so
 * the Xet CAS URL it hands out) are the proxy, which counts every upstream request and byte.
 *   1. cold: a 1 GiB file (BENCH_FILE_MB) downloaded through a mirror that has nothing cached (a fresh mirror
 *      each round) vs the same file downloaded directly from the upstream (through the same proxy, so both
 *      cross the same hop) vs a bare pull-through on Node (bare-floor.ts: receive, sha256, write, send, no
 *      hub) in front of the same proxy, the three in alternated order; LFS-stored, then Xet-stored upstream;
 *      CPU seconds per GiB of the mirror and of the floor, counted until each is idle again;
 *   2. warm: the same file again from the mirror vs a local repository of the mirror hub holding the same bytes;
 *   3. 32 concurrent cold requests for one file (BENCH_CONCURRENT): upstream transfers and bytes counted at the
 *      proxy, every client's sha256, the mirror's peak RSS;
 *   4. a new upstream revision of the Xet file with 2% changed (5 places): bytes the mirror fetches upstream
 *      to serve it.
 *   BENCH_FILE_MB (1024)   size of the files
 *   BENCH_ROUNDS (3)       rounds of each side-by-side measurement (median reported)
 *   BENCH_CONCURRENT (32)  clients of the concurrent cold download
 *   BENCH_COLD_ONLY (unset) 1: step 1 only (the cold ratios, while iterating on the pull's speed)
 *   BENCH_SKIP_BUILD (unset) 1: run apps/hub/dist as it is (built by hand, e.g. while another workspace's
 *                          sources do not typecheck)
 *   BENCH_CPU_PROF (unset) a directory: each mirror hub runs under `node --cpu-prof` and writes its profile
 *                          there when it stops (open it in Chrome DevTools or speedscope)
 */

import { execFile, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAsNpmStart, NPM_START_STEPS, npmStartServerArgs } from "../npm-start-hub.js";
import { median, rss, rssSampler } from "../repos/measure.js";
import { type ServerProcess, startServer } from "../router/processes.js";

const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 1024);
const SIZE = FILE_MB * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 32);
/** BENCH_CONCURRENT_XET=0 leaves out the Xet-stored concurrent case (the longest step on a slow machine). */
const CONCURRENT_XET = process.env.BENCH_CONCURRENT_XET !== "0";
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const PYTHON = join(repoRoot, ".venv", "bin", "python");
/** `npm start`'s node options (V8's young generation), for the hubs and, to compare like with like, the floor. */
const NODE_FLAGS = NPM_START_STEPS.server.slice(0, -1);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const COLD_ONLY = process.env.BENCH_COLD_ONLY === "1";
const ADMIN_TOKEN = `bench-mirror-admin-${process.pid}-${Date.now()}`;
const work = mkdtempSync(join(tmpdir(), "modelhub-bench-mirror-"));
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

interface Fetched {
  status: number;
  bytes: number;
  sha256: string;
  seconds: number;
  /** From the request to the answer's first body byte. */
  firstByte: number;
}

/** GETs `url`, hashing the body as it arrives; resolves with its status, size, sha256 and wall time. */
function fetchHashed(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    request(url, { headers, agent }, (response) => {
      const hash = createHash("sha256");
      let bytes = 0;
      let firstByte = 0;
      response.on("data", (chunk: Buffer) => {
        if (bytes === 0) firstByte = Number(process.hrtime.bigint() - start) / 1e9;
        bytes += chunk.length;
        hash.update(chunk);
      });
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          bytes,
          sha256: hash.digest("hex"),
          seconds: Number(process.hrtime.bigint() - start) / 1e9,
          firstByte,
        }),
      );
    })
      .on("error", reject)
      .end();
  });
}

/** A 200 of exactly the expected bytes, or the benchmark stops: a ratio of wrong bytes means nothing. */
async function fetchExpected(url: string, sha256: string, what: string): Promise<Fetched> {
  const fetched = await fetchHashed(url);
  if (fetched.status !== 200 || fetched.sha256 !== sha256) {
    throw new Error(
      `${what}: HTTP ${fetched.status}, ${fetched.bytes} bytes, sha256 ${fetched.sha256} (want ${sha256})`,
    );
  }
  return fetched;
}

function writeRandomFile(path: string, size: number): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "w");
  for (let at = 0; at < size; at += 16 << 20) {
    const block = randomBytes(Math.min(16 << 20, size - at));
    hash.update(block);
    writeSync(fd, block);
  }
  closeSync(fd);
  return hash.digest("hex");
}

/** A copy of `source` with `fraction` of its bytes replaced by random ones, in `places` separate runs. */
function writeEditedCopy(source: string, path: string, fraction: number, places: number): string {
  copyFileSync(source, path);
  const size = statSync(path).size;
  const run = Math.floor((size * fraction) / places);
  const fd = openSync(path, "r+");
  for (let i = 0; i < places; i++)
    writeSync(fd, randomBytes(run), 0, run, Math.floor(((i + 0.5) * size) / places));
  closeSync(fd);
  return sha256OfFile(path);
}

function sha256OfFile(path: string): string {
  return execFileSync("sha256sum", [path]).toString().split(" ")[0]!;
}

interface Hub extends ServerProcess {
  dataDir: string;
}

/** A hub as `npm start` runs it, on a fresh data directory; its log goes to a file beside it. */
async function startHub(name: string, env: Record<string, string>): Promise<Hub> {
  const dataDir = mkdtempSync(join(work, `${name}-`));
  // One directory per hub: each of its threads (the main one, hashing workers) writes a profile there.
  const profile =
    CPU_PROF_DIR && name === "mirror"
      ? ["--cpu-prof", `--cpu-prof-dir=${join(CPU_PROF_DIR, `mirror-${Date.now()}`)}`]
      : [];
  const server = await startServer(name, npmStartServerArgs(repoRoot, profile), {
    env: {
      ...process.env,
      DATA_DIR: join(dataDir, "data"),
      ADMIN_TOKEN,
      PORT: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
    stderr: openSync(join(dataDir, "hub.log"), "a"),
  });
  return {
    ...server,
    // Under --cpu-prof, V8's profiler thread spends 20-30 ms of CPU a second whatever the hub does: left in,
    // it counted in every pull's CPU, and `settled` never saw the hub idle (it waited its 60 s each time).
    cpuMs: profile.length > 0 ? () => server.cpuMs() - profilerThreadMs(server.pid) : server.cpuMs,
    dataDir,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;

/** CPU ms (user + system) of the V8 profiler's thread of process `pid` (`--cpu-prof`), 0 without one. */
function profilerThreadMs(pid: number): number {
  let ms = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      if (!stat.includes("(v8:ProfEvntProc)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ms;
}

async function call(
  url: string,
  token: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
  const { json, ...rest } = init;
  // A keep-alive connection the hub closed during a long upload fails the next call at once: ask again.
  const send = (init: RequestInit) =>
    fetch(url, init).catch((error: Error & { cause?: { code?: string } }) => {
      if (error.cause?.code !== "UND_ERR_SOCKET") throw error;
      return fetch(url, init);
    });
  const response = await send({
    ...rest,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { "content-type": "application/json" }),
      ...(rest.headers as Record<string, string>),
    },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** A user with a write token on `hub`, through the admin API. */
async function userToken(hub: string, name: string): Promise<string> {
  await call(`${hub}/api/admin/users`, ADMIN_TOKEN, { method: "POST", json: { name } });
  const issued = await call(`${hub}/api/admin/tokens`, ADMIN_TOKEN, {
    method: "POST",
    json: { user: name, name, role: "write" },
  });
  return ((await issued.json()) as { token: string }).token;
}

/** `file` committed as `path` to a new model repository through the Git LFS path (batch, PUT, commit). */
async function uploadLfs(hub: string, token: string, repo: string, path: string, file: string, oid: string) {
  await call(`${hub}/api/repos/create`, token, { method: "POST", json: { name: repo } });
  const size = statSync(file).size;
  const batch = await call(`${hub}/${repo}.git/info/lfs/objects/batch`, token, {
    method: "POST",
    headers: { "content-type": "application/vnd.git-lfs+json" },
    body: JSON.stringify({ operation: "upload", objects: [{ oid, size }] }),
  });
  const href = ((await batch.json()) as { objects: { actions?: { upload: { href: string } } }[] }).objects[0]
    ?.actions?.upload.href;
  if (href) {
    await new Promise<void>((resolve, reject) => {
      const put = request(href, { method: "PUT", headers: { "content-length": size } }, (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`LFS PUT: ${response.statusCode}`)),
        );
      });
      put.on("error", reject);
      createReadStream(file, { highWaterMark: 1 << 20 }).pipe(put);
    });
  }
  const lines = [
    { key: "header", value: { summary: `add ${path}` } },
    { key: "lfsFile", value: { path, algo: "sha256", oid, size } },
  ];
  await call(`${hub}/api/models/${repo}/commit/main`, token, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
}

/** `file` committed as `path` through huggingface_hub + hf_xet (Xet storage on the upstream). */
function uploadXet(hub: string, token: string, repo: string, path: string, file: string): Promise<void> {
  const code = [
    "from huggingface_hub import HfApi",
    "api = HfApi()",
    `api.create_repo(${JSON.stringify(repo)}, exist_ok=True)`,
    `api.upload_file(path_or_fileobj=${JSON.stringify(file)}, path_in_repo=${JSON.stringify(path)}, repo_id=${JSON.stringify(repo)})`,
  ].join("\n");
  return new Promise((resolve, reject) =>
    execFile(
      PYTHON,
      ["-c", code],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HF_ENDPOINT: hub,
          HF_TOKEN: token,
          HF_HOME: join(work, "hf-home"),
          HF_HUB_DISABLE_PROGRESS_BARS: "1",
          HF_HUB_DISABLE_TELEMETRY: "1",
        },
        maxBuffer: 16 << 20,
      },
      (error, _stdout, stderr) => (error ? reject(new Error(`Xet upload of ${repo}: ${stderr}`)) : resolve()),
    ),
  );
}

interface ProxyStats {
  requests: { method: string; path: string; status: number; bytes: number }[];
  bytes: number;
}

const proxyStats = async (proxy: string) =>
  (await (await fetch(`${proxy}/__proxy/stats`)).json()) as ProxyStats;
const proxyReset = async (proxy: string) => void (await fetch(`${proxy}/__proxy/reset`, { method: "POST" }));

/**
 * Upstream transfers of `path`'s content: its `/resolve` GETs (LFS-stored) and the Xet reconstructions the
 * mirror asked for (Xet-stored: one per file transfer, then its xorb ranges, counted apart).
 */
const contentTransfers = (stats: ProxyStats, path = "big.bin") =>
  stats.requests.filter(
    ({ method, path: url }) =>
      method === "GET" &&
      ((url.endsWith(`/${path}`) && /\/resolve\//.test(url)) ||
        /^\/xet-cas\/v[12]\/reconstructions\//.test(url)),
  ).length;
const xorbRanges = (stats: ProxyStats) =>
  stats.requests.filter(({ path }) => path.startsWith("/xet-cas/v1/fetch/")).length;

/** CPU seconds each process spends from now until the returned function is called (printed per step). */
function cpuOf(processes: Record<string, ServerProcess>): () => string {
  const before = Object.entries(processes).map(([name, server]) => [name, server, server.cpuMs()] as const);
  return () =>
    before.map(([name, server, ms]) => `${name} ${((server.cpuMs() - ms) / 1000).toFixed(2)}`).join(", ");
}

/** Whether any thread of process `pid` is running or waiting for a CPU (state R in /proc). */
function runnable(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "R";
    });
  } catch {
    return false;
  }
}

/**
 * Waits until a hub is idle: a fresh one's start-up work (the security scan's backfill of the seeded demo
 * repositories goes on for seconds after it printed its URL), or a pull's keeping after the client's last
 * byte. A cold pull measured during the backfill shared the hub's CPU with it, and its CPU seconds counted
 * the backfill's (a profile showed a third of a 256 MiB pull's). Idle: for a whole second, under 20 ms of
 * CPU and no thread runnable in more than one of ten looks (on a loaded machine a busy hub waiting for a CPU
 * spends little CPU, but is runnable). Gives up after 60 s.
 */
async function settled(hub: ServerProcess): Promise<void> {
  for (const giveUp = Date.now() + 60_000; Date.now() < giveUp; ) {
    const before = hub.cpuMs();
    let busyLooks = 0;
    for (let look = 0; look < 10; look++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (runnable(hub.pid)) busyLooks++;
    }
    if (hub.cpuMs() - before < 20 && busyLooks <= 1) return;
  }
}

const mibps = (seconds: number) => SIZE / (1 << 20) / seconds;
const fixed = (value: number, digits = 2) => Number(value.toFixed(digits));

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    buildAsNpmStart(repoRoot);
  }
  const started: ServerProcess[] = [];
  const lines: string[] = [];
  const say = (line = "") => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  say("## bench:mirror");
  say();
  say(
    `${FILE_MB} MiB files, ${ROUNDS} rounds (medians), ${availableParallelism()} CPUs, node ${process.version}, load average at start: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
  say();
  try {
    const proxy = await startServer("counting proxy", ["--import", "tsx", here("./counting-proxy.ts")]);
    started.push(proxy);
    const upstream = await startHub("upstream", { PUBLIC_URL: proxy.url });
    started.push(upstream);
    await fetch(`${proxy.url}/__proxy/target?url=${encodeURIComponent(upstream.url)}`, { method: "PUT" });
    const upstreamToken = await userToken(upstream.url, "bench");
    const mirrorEnv = { UPSTREAM_URL: proxy.url, UPSTREAM_TOKEN: upstreamToken };
    // What a pull-through on bare Node costs (bare-floor.ts), measured beside the mirror in step 1.
    const floor = await startServer(
      "bare floor",
      [...NODE_FLAGS, "--import", "tsx", here("./bare-floor.ts")],
      {
        env: {
          ...process.env,
          FLOOR_UPSTREAM: proxy.url,
          FLOOR_DIR: join(work, "floor"),
          FLOOR_TOKEN: upstreamToken,
        },
      },
    );
    started.push(floor);

    const lfsFile = join(work, "lfs.bin");
    const lfsSha = writeRandomFile(lfsFile, SIZE);
    await uploadLfs(upstream.url, upstreamToken, "bench/big-lfs", "big.bin", lfsFile, lfsSha);
    const xetFile = join(work, "xet.bin");
    const xetSha = writeRandomFile(xetFile, SIZE);
    await uploadXet(upstream.url, upstreamToken, "bench/big-xet", "big.bin", xetFile);

    // 1. Cold through a fresh mirror vs direct from upstream, alternating; the last mirror stays for warm.
    let mirror: Hub | undefined;
    // Whichever mirror is running when a step fails is stopped with the rest.
    started.push({ ...proxy, name: "current mirror", stop: async () => void (await mirror?.stop()) });
    const cold = async (repo: string, sha256: string) => {
      const direct: number[] = [];
      const through: number[] = [];
      const bare: number[] = [];
      const mirrorCpu: number[] = [];
      const floorCpu: number[] = [];
      const transfers: number[] = [];
      const ranges: number[] = [];
      const upstreamBytes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await mirror?.stop();
        mirror = await startHub("mirror", mirrorEnv);
        await settled(mirror);
        const hubs = { mirror, upstream, proxy, floor };
        const directRun = async () => {
          const cpu = cpuOf(hubs);
          const fetched = await fetchExpected(
            `${proxy.url}/${repo}/resolve/main/big.bin`,
            sha256,
            `direct ${repo}`,
          );
          direct.push(fetched.seconds);
          process.stderr.write(
            `${repo} direct ${fetched.seconds.toFixed(2)} s (first byte ${fetched.firstByte.toFixed(2)} s), CPU s: ${cpu()}\n`,
          );
        };
        const mirrorRun = async () => {
          await proxyReset(proxy.url);
          const cpu = cpuOf(hubs);
          const mirrorBefore = mirror!.cpuMs();
          const fetched = await fetchExpected(
            `${mirror!.url}/${repo}/resolve/main/big.bin`,
            sha256,
            `cold ${repo}`,
          );
          through.push(fetched.seconds);
          const duringDownload = cpu();
          // The content is kept (moved into the blob store, or the Xet file registered) after the client's
          // last byte: the pull's CPU is counted until the mirror is idle again.
          await settled(mirror!);
          mirrorCpu.push((mirror!.cpuMs() - mirrorBefore) / 1000);
          process.stderr.write(
            `${repo} through the mirror ${fetched.seconds.toFixed(2)} s (first byte ${fetched.firstByte.toFixed(2)} s), CPU s: ${duringDownload}; until idle: ${cpu()}\n`,
          );
          const stats = await proxyStats(proxy.url);
          transfers.push(contentTransfers(stats));
          ranges.push(xorbRanges(stats));
          if (process.env.BENCH_TRACE) {
            process.stderr.write(
              `${stats.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.bytes}`).join("\n")}\n`,
            );
          }
          upstreamBytes.push(stats.bytes);
        };
        const floorRun = async () => {
          await fetch(`${floor.url}/__floor/kept`, { method: "DELETE" });
          const cpu = cpuOf(hubs);
          const floorBefore = floor.cpuMs();
          const fetched = await fetchExpected(
            `${floor.url}/${repo}/resolve/main/big.bin`,
            sha256,
            `bare floor ${repo}`,
          );
          bare.push(fetched.seconds);
          await settled(floor);
          floorCpu.push((floor.cpuMs() - floorBefore) / 1000);
          process.stderr.write(
            `${repo} bare floor ${fetched.seconds.toFixed(2)} s (first byte ${fetched.firstByte.toFixed(2)} s), CPU s: ${cpu()}\n`,
          );
        };
        // The three alternate: each goes first, second and third in turn, so none always meets a warmer
        // page cache or a quieter machine.
        const runs = [directRun, mirrorRun, floorRun];
        for (let i = 0; i < runs.length; i++) await runs[(i + round) % runs.length]!();
      }
      return {
        direct: median(direct),
        through: median(through),
        bare: median(bare),
        mirrorCpu,
        floorCpu,
        transfers,
        ranges,
        upstreamBytes,
      };
    };
    const coldLfs = await cold("bench/big-lfs", lfsSha);
    const coldXet = await cold("bench/big-xet", xetSha);
    say(
      "| cold (nothing cached) | direct from upstream | through the mirror | ratio (goal >= 0.8) | bare pull-through floor | floor's ratio | mirror CPU s per GiB, per round | floor CPU s per GiB, per round | upstream transfers of the file (xorb ranges) / bytes, per round |",
    );
    say("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    const perGiB = (seconds: number[]) => seconds.map((s) => ((s * (1 << 30)) / SIZE).toFixed(2)).join(", ");
    for (const [name, run] of [
      ["LFS-stored", coldLfs],
      ["Xet-stored", coldXet],
    ] as const) {
      say(
        `| ${name} | ${mibps(run.direct).toFixed(0)} MiB/s | ${mibps(run.through).toFixed(0)} MiB/s | ${fixed(run.direct / run.through)}x | ${mibps(run.bare).toFixed(0)} MiB/s | ${fixed(run.direct / run.bare)}x | ${perGiB(run.mirrorCpu)} | ${perGiB(run.floorCpu)} | ${run.transfers.map((count, round) => `${count} (${run.ranges[round]})`).join(", ")} / ${run.upstreamBytes.map((b) => fixed(b / SIZE, 3)).join(", ")}x the file |`,
      );
    }
    say();
    if (COLD_ONLY) return;

    // 2. A new upstream revision of the Xet file with 2% changed: what the mirror, which cached the first
    // revision in step 1, fetches upstream to serve it.
    const xetMirror = mirror!;
    const edited = join(work, "xet-edited.bin");
    const editedSha = writeEditedCopy(xetFile, edited, 0.02, 5);
    await uploadXet(upstream.url, upstreamToken, "bench/big-xet", "big.bin", edited);
    const revision = (await (
      await call(`${upstream.url}/api/models/bench/big-xet/revision/main`, upstreamToken)
    ).json()) as {
      sha: string;
    };
    await proxyReset(proxy.url);
    const changed = await fetchExpected(
      `${xetMirror.url}/bench/big-xet/resolve/${revision.sha}/big.bin`,
      editedSha,
      "edited revision",
    );
    const editStats = await proxyStats(proxy.url);
    say(
      "| new revision, 2% of the Xet file changed (5 places) | bytes fetched upstream | of the file (goal <= 5%) | upstream requests | download through the mirror |",
    );
    say("| --- | --- | --- | --- | --- |");
    say(
      `| ${revision.sha.slice(0, 8)} | ${(editStats.bytes / (1 << 20)).toFixed(1)} MiB | ${((100 * editStats.bytes) / SIZE).toFixed(2)}% | ${editStats.requests.length} | ${mibps(changed.seconds).toFixed(0)} MiB/s |`,
    );
    say();

    // 3. Warm (cached on the mirror) vs a local repository of the mirror hub holding the same bytes.
    const live = xetMirror;
    const localToken = await userToken(live.url, "local");
    await uploadLfs(live.url, localToken, "local/big", "big.bin", lfsFile, lfsSha);
    // This mirror has pulled only the Xet file so far: the warm-up is a cold pull, whose keeping (the blob
    // store's check and fsync) goes on after the client has its last byte. Measured before it ends, the
    // first warm round would share the CPU with it (and could still read the transfer's file).
    const storedFiles = async () =>
      (
        (await (await call(`${live.url}/api/admin/mirror`, ADMIN_TOKEN)).json()) as {
          cache: { storedFiles: number };
        }
      ).cache.storedFiles;
    const storedBefore = await storedFiles();
    await fetchExpected(`${live.url}/bench/big-lfs/resolve/main/big.bin`, lfsSha, "warm-up");
    for (const giveUp = Date.now() + 300_000; (await storedFiles()) === storedBefore; ) {
      if (Date.now() > giveUp) throw new Error("The warm-up's content was not kept within 5 minutes.");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const warm: number[] = [];
    const local: number[] = [];
    await proxyReset(proxy.url);
    for (let round = 0; round < ROUNDS; round++) {
      const runs = [
        () =>
          fetchExpected(`${live.url}/bench/big-lfs/resolve/main/big.bin`, lfsSha, "warm").then((f) =>
            warm.push(f.seconds),
          ),
        () =>
          fetchExpected(`${live.url}/local/big/resolve/main/big.bin`, lfsSha, "local").then((f) =>
            local.push(f.seconds),
          ),
      ];
      if (round % 2 === 1) runs.reverse();
      for (const run of runs) await run();
    }
    const warmUpstream = await proxyStats(proxy.url);
    say(
      "| warm (LFS-stored, cached) | local repository | mirrored repository | ratio (goal >= 0.9) | upstream bytes meanwhile |",
    );
    say("| --- | --- | --- | --- | --- |");
    say(
      `| ${ROUNDS} rounds | ${mibps(median(local)).toFixed(0)} MiB/s | ${mibps(median(warm)).toFixed(0)} MiB/s | ${fixed(median(local) / median(warm))}x | ${warmUpstream.bytes} (${warmUpstream.requests.length} requests) |`,
    );
    say();

    await live.stop();
    mirror = undefined;

    // 4. 32 concurrent cold requests for one file: one upstream transfer, every client byte-identical.
    const concurrentCases = [
      ["LFS-stored", "bench/big-lfs", lfsSha],
      // main's file is the edited revision since step 2.
      ["Xet-stored", "bench/big-xet", editedSha],
    ] as const;
    for (const [name, repo, sha256] of concurrentCases.slice(0, CONCURRENT_XET ? 2 : 1)) {
      const fresh = await startHub("mirror", mirrorEnv);
      mirror = fresh;
      await settled(fresh);
      const idle = rss(fresh.pid);
      await proxyReset(proxy.url);
      const sampler = rssSampler(fresh.pid);
      const begin = process.hrtime.bigint();
      const clients = await Promise.all(
        Array.from({ length: CONCURRENT }, () => fetchHashed(`${fresh.url}/${repo}/resolve/main/big.bin`)),
      );
      const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
      const peak = sampler.stop();
      const stats = await proxyStats(proxy.url);
      const identical = clients.filter((client) => client.status === 200 && client.sha256 === sha256).length;
      if (name === "LFS-stored") {
        say(
          `| ${CONCURRENT} concurrent cold | clients byte-identical | upstream transfers of the file (xorb ranges) | upstream bytes | all done in | aggregate | mirror RSS idle / peak |`,
        );
        say("| --- | --- | --- | --- | --- | --- | --- |");
      }
      say(
        `| ${name} | ${identical}/${CONCURRENT} | ${contentTransfers(stats)} (${xorbRanges(stats)}) | ${fixed(stats.bytes / SIZE, 3)}x the file | ${seconds.toFixed(1)} s | ${((CONCURRENT * SIZE) / (1 << 20) / seconds).toFixed(0)} MiB/s | ${idle.toFixed(0)} / ${peak.toFixed(0)} MiB |`,
      );
      await fresh.stop();
      mirror = undefined;
    }
    say();
  } finally {
    for (const server of started.reverse()) await server.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
