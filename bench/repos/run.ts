/**
 * The repository benchmark (issue 42), side by side in one run: the hub started as `npm start` starts it
 * (../npm-start-hub.ts) beside the machine's floors, nginx with sendfile (nginx.ts) and a bare node:http
 * server (serve.ts), all serving the same stored bytes from the hub's blob store:
 *   - one download of a BENCH_FILE_MB (512) MiB file, then eight of it at once, also through nginx in front
 *     of a second hub started with DOWNLOAD_OFFLOAD=x-accel (the hub authorizes, nginx sends the bytes);
 *   - 64 connections of `HEAD /resolve` of a small file, and of `GET /api/models/{id}` (nginx and the bare
 *     server serve the hub's very answer, saved to a file);
 *   - the LFS upload of BENCH_UPLOAD_MB (256) MiB beside a bare PUT that hashes (sha256) and fsyncs, and the
 *     same size uploaded as Xet xorbs and a shard (xet-upload.ts) beside the same bodies PUT to the bare
 *     server; the hub's peak RSS during each;
 *   - `snapshot_download` of a 1,000-file repository and one-byte commits to 20,000 files (hub only;
 *     BENCH_EXTRAS=0 skips them).
 * BENCH_ROUNDS (3) rounds, the targets in a rotating order within each, medians printed. Every figure comes
 * with the server's CPU time (its process and children, from /proc) per GiB or per request: on a shared
 * machine that is the steadier figure. BENCH_ONLY=download,api,upload limits the parts run.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startNpmStartHub } from "../npm-start-hub.js";
import { measureCommitCost } from "./commit-cost.js";
import {
  benchToken,
  bigRepo,
  createRepo,
  download,
  httpLoad,
  hubApi,
  type LoadCall,
  lfsUploadUrl,
  median,
  rss,
  rssSampler,
  serveChild,
  timedWithCpu,
  treeCpuSeconds,
  untilIdle,
  upload,
  writeRandomFile,
} from "./measure.js";
import { startNginx, startNginxInFront } from "./nginx.js";
import { prepareXetUpload, uploadToFloor, uploadToHub, type XetUpload, xetWriteToken } from "./xet-upload.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO_DIR = join(HERE, "..", "..");
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 512);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * The least time the hub has been up when the upload rounds start: an LFS upload cost 1.9 CPU s/GiB on a hub
 * started seconds before and 4-7 on one up a few minutes (results/2026-11-30-lfs-upload.md).
 */
const UPLOAD_AFTER_SECONDS = Number(process.env.BENCH_UPLOAD_AFTER_SECONDS ?? 240);
/**
 * Downloads of the file back to back in one round's "one download" measurement: one 512 MiB download lasts
 * ~0.3 s at this machine's 1.5-2 GB/s, short enough that a scheduler hiccup moved the offload row from 0.83x
 * to 1.05x between runs (bench/results/2026-11-30-api-3.md).
 */
const DOWNLOAD_REPEAT = Number(process.env.BENCH_DOWNLOAD_REPEAT ?? 4);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 64;
const PARTS = new Set((process.env.BENCH_ONLY ?? "download,api,upload,extras").split(","));
if (process.env.BENCH_EXTRAS === "0") PARTS.delete("extras");
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

/** One server under measurement and how to reach each thing it serves. */
interface Target {
  name: string;
  pid: number;
  bigUrl: string;
  headCall: LoadCall;
  infoCall: LoadCall;
  headers: Record<string, string>;
  /** Every process whose CPU the target's downloads cost (nginx in front and the hub behind it). */
  cpuPids?: number[];
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));
const rotate = <T>(items: T[], by: number) => items.map((_, i) => items[(i + by) % items.length]!);

/** Per target, the figures of every round of one measurement. */
type Rounds = Map<string, { wall: number; cpu: number; extra?: Record<string, number> }[]>;

async function inRounds(
  targets: Target[],
  measure: (target: Target) => Promise<{ wall: number; cpu: number; extra?: Record<string, number> }>,
) {
  const rounds: Rounds = new Map(targets.map((target) => [target.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of rotate(targets, r)) rounds.get(target.name)!.push(await measure(target));
  }
  return rounds;
}

/** Throughput rows: MiB/s and CPU seconds per GiB, medians of the rounds, and the ratio to nginx. */
function transferTable(title: string, rounds: Rounds, bytes: number, floor: string) {
  const mib = bytes / 2 ** 20;
  const rows = [...rounds].map(([name, list]) => {
    const mibps = median(list.map((r) => mib / r.wall));
    const cpuPerGiB = median(list.map((r) => r.cpu / (bytes / 2 ** 30)));
    return { name, mibps: round(mibps), cpuPerGiB: round(cpuPerGiB, 2) };
  });
  const base = rows.find((row) => row.name === floor)!;
  return {
    title,
    rows: rows.map((row) => ({
      ...row,
      ratio: round(row.mibps / base.mibps, 2),
      cpuRatio: round(row.cpuPerGiB / base.cpuPerGiB, 2),
    })),
  };
}

/** Request rows: req/s, p50/p99 and CPU ms per request, medians of the rounds, and the ratio to nginx. */
function requestTable(title: string, rounds: Rounds) {
  const rows = [...rounds].map(([name, list]) => ({
    name,
    reqPerSec: round(median(list.map((r) => r.extra!.reqPerSec!))),
    p50ms: median(list.map((r) => r.extra!.p50ms!)),
    p99ms: median(list.map((r) => r.extra!.p99ms!)),
    cpuMsPerRequest: round(median(list.map((r) => (r.cpu * 1000) / r.extra!.requests!)), 3),
    errors: list.reduce((sum, r) => sum + r.extra!.errors!, 0),
  }));
  const base = rows.find((row) => row.name === "nginx")!;
  return {
    title,
    rows: rows.map((row) => ({
      ...row,
      ratio: round(row.reqPerSec / base.reqPerSec, 2),
      cpuRatio: round(row.cpuMsPerRequest / base.cpuMsPerRequest, 2),
    })),
  };
}

/**
 * Each download target's throughput over nginx's in the same round (the ratio of their wall times), the
 * median and every round: rounds run minutes apart share less of the machine's load than two targets of one
 * round, so this pairs them, and every round is shown to tell a swing from a trend.
 */
function pairedRatios(title: string, rounds: Rounds): string[] {
  const nginx = rounds.get("nginx");
  if (!nginx) return [];
  return [...rounds]
    .filter(([name]) => name !== "nginx")
    .map(([name, list]) => {
      const ratios = list.map((r, i) => nginx[i]!.wall / r.wall);
      return `${title}, ${name} / nginx in the same round: median ${median(ratios).toFixed(2)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(", ")})`;
    });
}

type Table = ReturnType<typeof transferTable> | ReturnType<typeof requestTable>;

/** A table as Markdown, the ratio to the floor beside each figure. */
function markdown(table: Table): string[] {
  const first = table.rows[0]!;
  if ("mibps" in first) {
    return [
      `${table.title}`,
      "| server | MiB/s | CPU s/GiB | MiB/s ratio | CPU ratio |",
      "|---|---|---|---|---|",
      ...(table.rows as ReturnType<typeof transferTable>["rows"]).map(
        (r) => `| ${r.name} | ${r.mibps} | ${r.cpuPerGiB} | ${r.ratio}x | ${r.cpuRatio}x |`,
      ),
    ];
  }
  return [
    `${table.title}`,
    "| server | req/s | p50 ms | p99 ms | CPU ms/request | errors | req/s ratio | CPU ratio |",
    "|---|---|---|---|---|---|---|---|",
    ...(table.rows as ReturnType<typeof requestTable>["rows"]).map(
      (r) =>
        `| ${r.name} | ${r.reqPerSec} | ${r.p50ms} | ${r.p99ms} | ${r.cpuMsPerRequest} | ${r.errors} | ${r.ratio}x | ${r.cpuRatio}x |`,
    ),
  ];
}

async function load(target: Target, call: LoadCall) {
  const before = treeCpuSeconds(target.pid);
  const result = await httpLoad(
    [target.bigUrl.replace(/^(https?:\/\/[^/]+).*$/, "$1")],
    [call],
    CONNECTIONS,
    LOAD_SECONDS,
  );
  return { wall: LOAD_SECONDS, cpu: treeCpuSeconds(target.pid) - before, extra: result };
}

/**
 * A second hub, started as `npm start` with DOWNLOAD_OFFLOAD=x-accel, behind nginx with the hub's documented
 * configuration, holding the same file: the offload row of the download tables (its CPU is nginx's and the
 * hub's together).
 */
async function offloadTarget(file: string, oid: string, size: number, config: Buffer) {
  const hub = await startNpmStartHub({ ADMIN_TOKEN, DOWNLOAD_OFFLOAD: "x-accel" });
  const token = await benchToken(hub.url, ADMIN_TOKEN);
  await bigRepo(hubApi(hub.url, token), file, oid, size, config);
  const front = await startNginxInFront(hub.url, hub.dataDir);
  await untilIdle(hub.pid);
  const headers = { Authorization: `Bearer ${token}` };
  const target: Target = {
    name: "nginx offload (hub authorizes)",
    pid: front.pid,
    cpuPids: [front.pid, hub.pid],
    bigUrl: `${front.url}/bench/big/resolve/main/big.bin`,
    headCall: { method: "HEAD", path: "/bench/big/resolve/main/config.json", headers },
    infoCall: { method: "GET", path: "/api/models/bench/big", headers },
    headers,
  };
  return {
    target,
    stop: async () => {
      await front.stop();
      await hub.stop();
    },
  };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "modelhub-bench-files-"));
  const hub = await startNpmStartHub({ ADMIN_TOKEN });
  // With BENCH_CPU_PROF, when each part starts, in seconds since the hub started: where to cut its profile.
  const started = performance.now();
  const phase = (name: string) => {
    if (process.env.BENCH_CPU_PROF)
      process.stderr.write(`[profile] ${name} at ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  };
  const token = await benchToken(hub.url, ADMIN_TOKEN);
  const bare = await serveChild(join(HERE, "serve.ts"), work);
  const www = join(work, "www");
  mkdirSync(www);
  symlinkSync(join(hub.dataDir, "blobs"), join(www, "blobs"));
  const nginx = await startNginx(www);
  const auth = { Authorization: `Bearer ${token}` };
  const api = hubApi(hub.url, token);
  let offload: Awaited<ReturnType<typeof offloadTarget>> | undefined;
  const stopAll = async () => {
    await offload?.stop();
    await nginx.stop();
    bare.child.kill("SIGTERM");
    await hub.stop();
  };
  try {
    const big = join(work, "big.bin");
    const oid = await writeRandomFile(big, FILE_MB);
    const size = FILE_MB * 2 ** 20;
    const config = Buffer.from(JSON.stringify({ architectures: ["BenchModel"], model_type: "bench" }));
    await bigRepo(api, big, oid, size, config);
    const stored = `sha256/${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid}`;
    const info = Buffer.from(await (await api("/api/models/bench/big")).arrayBuffer());
    writeFileSync(join(www, "config.json"), config);
    writeFileSync(join(www, "model-info.json"), info);

    const targets: Target[] = [
      {
        name: "hub",
        pid: hub.pid,
        bigUrl: `${hub.url}/bench/big/resolve/main/big.bin`,
        headCall: { method: "HEAD", path: "/bench/big/resolve/main/config.json", headers: auth },
        infoCall: { method: "GET", path: "/api/models/bench/big", headers: auth },
        headers: auth,
      },
      {
        name: "nginx",
        pid: nginx.pid,
        bigUrl: `${nginx.url}/blobs/${stored}`,
        headCall: { method: "HEAD", path: "/config.json" },
        infoCall: { method: "GET", path: "/model-info.json" },
        headers: {},
      },
      {
        name: "bare node",
        pid: bare.child.pid!,
        bigUrl: `${bare.info.url}/?path=${encodeURIComponent(join(hub.dataDir, "blobs", stored))}`,
        headCall: { method: "HEAD", path: `/?path=${encodeURIComponent(join(www, "config.json"))}` },
        infoCall: { method: "GET", path: `/?path=${encodeURIComponent(join(www, "model-info.json"))}` },
        headers: {},
      },
    ];
    if (PARTS.has("download")) offload = await offloadTarget(big, oid, size, config);
    const downloadTargets = offload ? [...targets, offload.target] : targets;
    await untilIdle(hub.pid);
    // The file into the page cache, every path warmed up (JIT, keep-alive), before anything is measured.
    for (const target of downloadTargets) {
      await download(target.bigUrl, target.headers);
      await httpLoad([new URL(target.bigUrl).origin], [target.headCall, target.infoCall], CONNECTIONS, 1);
    }

    const tables: Table[] = [];
    const notes: string[] = [];
    phase("downloads");
    if (PARTS.has("download")) {
      const one = await inRounds(downloadTargets, (target) =>
        timedWithCpu(target.cpuPids ?? target.pid, async () => {
          for (let i = 0; i < DOWNLOAD_REPEAT; i++) await download(target.bigUrl, target.headers);
        }),
      );
      tables.push(
        transferTable(
          `one ${FILE_MB} MiB download (${DOWNLOAD_REPEAT} in a row per round)`,
          one,
          DOWNLOAD_REPEAT * size,
          "nginx",
        ),
      );
      notes.push(...pairedRatios(`one ${FILE_MB} MiB download`, one));
      phase("eight downloads");
      const eight = await inRounds(downloadTargets, (target) =>
        timedWithCpu(target.cpuPids ?? target.pid, () =>
          Promise.all(Array.from({ length: 8 }, () => download(target.bigUrl, target.headers))),
        ),
      );
      tables.push(transferTable(`eight ${FILE_MB} MiB downloads at once`, eight, 8 * size, "nginx"));
      notes.push(...pairedRatios(`eight ${FILE_MB} MiB downloads at once`, eight));
    }
    if (PARTS.has("api")) {
      phase("HEAD /resolve");
      tables.push(
        requestTable(
          `HEAD /resolve (small file), ${CONNECTIONS} connections`,
          await inRounds(targets, (t) => load(t, t.headCall)),
        ),
      );
      phase("model info");
      tables.push(
        requestTable(
          `GET /api/models/{id} (${info.length} bytes), ${CONNECTIONS} connections`,
          await inRounds(targets, (t) => load(t, t.infoCall)),
        ),
      );
    }
    phase("upload");
    if (PARTS.has("upload")) {
      // Uploads on a hub that has been up for minutes, as every real one has: one started seconds before
      // still has the heap V8 sized while it started, and uploads at a third of the CPU (lfs-aged.ts).
      const upFor = (performance.now() - started) / 1000;
      if (upFor < UPLOAD_AFTER_SECONDS)
        await new Promise((r) => setTimeout(r, (UPLOAD_AFTER_SECONDS - upFor) * 1000));
      notes.push(
        `The upload rounds started ${((performance.now() - started) / 1000).toFixed(0)} s after the hub did.`,
      );
      const part = join(work, "upload.bin");
      const partOid = await writeRandomFile(part, UPLOAD_MB);
      const partSize = UPLOAD_MB * 2 ** 20;
      let hubRound = 0;
      const rssBefore = rss(hub.pid);
      let lfsRssPeak = 0;
      let xetRssPeak = 0;
      const uploaders = [
        { name: "hub", pid: hub.pid },
        { name: "bare node", pid: bare.child.pid! },
      ] as Target[];
      const uploads = await inRounds(uploaders, async (target) => {
        if (target.name === "bare node")
          return timedWithCpu(target.pid, () => upload(`${bare.info.url}/`, part));
        const r = hubRound++;
        const url = await lfsUploadUrl(api, "bench/big", partOid, partSize, r);
        // Rounds after the first upload the same bytes under another oid: the hub reads, hashes and refuses
        // them at the end (a 400), which costs what a fresh upload costs without keeping a second copy.
        const memory = rssSampler(hub.pid);
        const measured = await timedWithCpu(target.pid, () =>
          upload(url, part).catch((error) => {
            if (r === 0) throw error;
          }),
        );
        lfsRssPeak = Math.max(lfsRssPeak, memory.stop());
        return measured;
      });
      tables.push(
        transferTable(`LFS upload of ${UPLOAD_MB} MiB (sha256 + fsync)`, uploads, partSize, "bare node"),
      );
      phase("xet upload");
      const xet = await xetWriteToken(hub.url, token, "bench/big");
      // Each round's bytes differ (no xorb is stored already), and both servers receive the same ones.
      // A round's upload is kept until both servers have received it (then dropped: it is 2x the file).
      const prepared = new Map<number, { upload: XetUpload; uses: number }>();
      const xetRounds = new Map(uploaders.map((target) => [target.name, 0]));
      let xetBytes = 0;
      const xetUploads = await inRounds(uploaders, async (target) => {
        const r = xetRounds.get(target.name)!;
        xetRounds.set(target.name, r + 1);
        if (!prepared.has(r))
          prepared.set(r, { upload: await prepareXetUpload(part, partSize, r + 1), uses: 0 });
        const entry = prepared.get(r)!;
        if (++entry.uses === uploaders.length) prepared.delete(r);
        const upload = entry.upload;
        xetBytes = upload.bytes;
        if (target.name === "hub") {
          await untilIdle(hub.pid, 20);
          const memory = rssSampler(hub.pid);
          const measured = await timedWithCpu(target.pid, () =>
            uploadToHub(xet.casUrl, xet.accessToken, upload),
          );
          xetRssPeak = Math.max(xetRssPeak, memory.stop());
          return measured;
        }
        return timedWithCpu(target.pid, () => uploadToFloor(`${bare.info.url}/`, upload));
      });
      tables.push(
        transferTable(
          `Xet upload of ${UPLOAD_MB} MiB (${Math.ceil(UPLOAD_MB / 64)} xorbs, then the shard)`,
          xetUploads,
          xetBytes,
          "bare node",
        ),
      );
      notes.push(
        `Hub RSS: ${round(rssBefore)} MiB before the uploads, peak ${round(lfsRssPeak)} MiB during the LFS uploads, ${round(xetRssPeak)} MiB during the Xet uploads.`,
      );
    }

    phase("done");
    const extras: Record<string, unknown> = {};
    if (PARTS.has("extras")) {
      await createRepo(api, "bench/many");
      await api("/api/models/bench/many/commit/main", {
        method: "POST",
        headers: { "Content-Type": "application/x-ndjson" },
        body: [
          { key: "header", value: { summary: "many" } },
          ...Array.from({ length: 1000 }, (_, i) => ({
            key: "file",
            value: {
              path: `files/${String(i).padStart(4, "0")}.txt`,
              content: Buffer.from(`file ${i}\n`).toString("base64"),
              encoding: "base64",
            },
          })),
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
      });
      const python = join(REPO_DIR, ".venv", "bin", "python");
      const script = `import time\nfrom huggingface_hub import snapshot_download\nt=time.time()\nsnapshot_download("bench/many", cache_dir=${JSON.stringify(join(work, "hf-cache"))})\nprint(time.time()-t)`;
      const seconds = await new Promise<number>((resolve, reject) =>
        execFile(
          python,
          ["-c", script],
          {
            env: {
              ...process.env,
              HF_ENDPOINT: hub.url,
              HF_TOKEN: token,
              HF_HUB_DISABLE_XET: "1",
              HF_HUB_DISABLE_PROGRESS_BARS: "1",
            },
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(stderr)) : resolve(Number(stdout.trim().split("\n").at(-1))),
        ),
      );
      extras.snapshot1000 = { seconds: round(seconds, 2), filesPerSecond: round(1000 / seconds) };
      extras.oneByteCommitTo20000Files = {
        dataset: await measureCommitCost(api, hub.dataDir, { type: "dataset" }),
        model: await measureCommitCost(api, hub.dataDir, { type: "model" }),
      };
    }

    const lines = [
      `hub started as \`npm start\` (bench/npm-start-hub.ts); ${ROUNDS} rounds, medians; load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(
          " ",
        )} (throughput on a loaded machine moves with the load; CPU per GiB / per request is steadier)`,
      "",
      ...tables.flatMap((table) => [...markdown(table), ""]),
      ...notes.flatMap((note) => [note, ""]),
    ];
    if (Object.keys(extras).length > 0) lines.push("```json", JSON.stringify(extras, null, 2), "```");
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

// BENCH_SCAN_UPLOADS=1: only uploads, alternating rounds with the scanner on and off (scan-uploads.ts).
if (process.env.BENCH_SCAN_UPLOADS) void import("./scan-uploads.js").then((bench) => bench.main());
else void main();
