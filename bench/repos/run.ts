/**
 * The repository benchmark, side by side in one run (bench/README.md): a large file downloaded through
 * `/resolve` against a bare node:http server piping the same file, uploaded through the LFS path against a
 * bare upload to disk, the hub's peak RSS above idle during each, `snapshot_download` of a 1,000-file
 * repository, 64 concurrent `HEAD /resolve`, and one-byte commits to a repository of 20,000 files (storage and
 * time per commit: commit-cost.ts). BENCH_FILE_MB (default 1024) sets the large file's size.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureCommitCost } from "./commit-cost.js";
import {
  createRepo,
  download,
  httpLoad,
  hubApi,
  lfsUploadUrl,
  median,
  rss,
  rssSampler,
  serveChild,
  timedWithCpu,
  upload,
  writeRandomFile,
} from "./measure.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO_DIR = join(HERE, "..", "..");
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Wall and CPU seconds of each round through the hub and through the bare server, and the hub's peak RSS. */
interface Rounds {
  hub: number[];
  bare: number[];
  hubCpu: number[];
  bareCpu: number[];
  peak: number;
}

/**
 * ROUNDS rounds of one transfer, through the hub then through the bare server. `prepareHub` runs before the
 * hub's sampling and timing start (e.g. asking for an upload URL) and returns the call to measure.
 */
async function hubBesideBare(
  hubPid: number,
  prepareHub: (round: number) => Promise<() => Promise<unknown>>,
  barePid: number,
  bareCall: () => Promise<unknown>,
): Promise<Rounds> {
  const rounds: Rounds = { hub: [], bare: [], hubCpu: [], bareCpu: [], peak: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const hubCall = await prepareHub(round);
    const sampler = rssSampler(hubPid);
    const hubRun = await timedWithCpu(hubPid, hubCall);
    rounds.peak = Math.max(rounds.peak, sampler.stop());
    rounds.hub.push(hubRun.wall);
    rounds.hubCpu.push(hubRun.cpu);
    const bareRun = await timedWithCpu(barePid, bareCall);
    rounds.bare.push(bareRun.wall);
    rounds.bareCpu.push(bareRun.cpu);
  }
  return rounds;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "modelhub-bench-files-"));
  const hub = await serveChild(join(HERE, "serve.ts"), "hub");
  const pipe = await serveChild(join(HERE, "serve.ts"), "pipe");
  const sink = await serveChild(join(HERE, "serve.ts"), "sink", work);
  const { url, token } = hub.info as { url: string; token: string };
  const auth = { Authorization: `Bearer ${token}` };
  const api = hubApi(url, token);
  try {
    const big = join(work, "big.bin");
    const oid = await writeRandomFile(big, FILE_MB);
    const size = FILE_MB << 20;

    await createRepo(api, "bench/big");
    const idle = rss(hub.child.pid!);

    // Upload: the LFS PUT against a bare upload to disk (first round stores it; later ones re-verify it).
    const uploads = await hubBesideBare(
      hub.child.pid!,
      async (round) => {
        const href = await lfsUploadUrl(api, "bench/big", oid, size, round);
        // Rounds after the first upload the same bytes under another oid: the hub reads, hashes and refuses
        // them at the end (a 400), which costs what a fresh upload costs without keeping a second copy.
        return () =>
          upload(href, big).catch((error) => {
            if (round === 0) throw error;
          });
      },
      sink.child.pid!,
      () => upload(`${sink.info.url}/`, big),
    );
    const commitLine = (summary: string, lines: unknown[]) =>
      [{ key: "header", value: { summary } }, ...lines].map((line) => JSON.stringify(line)).join("\n");
    await api("/api/models/bench/big/commit/main", {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: commitLine("big", [{ key: "lfsFile", value: { path: "big.bin", algo: "sha256", oid, size } }]),
    });
    const stored = join(hub.info.dataDir!, "blobs", "sha256", oid.slice(0, 2), oid.slice(2, 4), oid);

    // Download: /resolve against the bare pipe of the very same file on disk.
    const downloads = await hubBesideBare(
      hub.child.pid!,
      async () => () => download(`${url}/bench/big/resolve/main/big.bin`, auth),
      pipe.child.pid!,
      () => download(`${pipe.info.url}/?path=${encodeURIComponent(stored)}`),
    );

    // 64 concurrent HEAD /resolve of a small file.
    await api("/api/models/bench/big/commit/main", {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: commitLine("config", [
        {
          key: "file",
          value: { path: "config.json", content: Buffer.from("{}").toString("base64"), encoding: "base64" },
        },
      ]),
    });
    const head64 = await httpLoad(
      [url],
      [{ method: "HEAD", path: "/bench/big/resolve/main/config.json", headers: auth }],
      64,
      5,
    );

    // snapshot_download of a 1,000-file repository, fresh cache.
    await createRepo(api, "bench/many");
    const files = Array.from({ length: 1000 }, (_, i) => ({
      key: "file",
      value: {
        path: `files/${String(i).padStart(4, "0")}.txt`,
        content: Buffer.from(`file ${i}\n`).toString("base64"),
        encoding: "base64",
      },
    }));
    await api("/api/models/bench/many/commit/main", {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: commitLine("many", files),
    });
    const python = join(REPO_DIR, ".venv", "bin", "python");
    const script = `import time\nfrom huggingface_hub import snapshot_download\nt=time.time()\nsnapshot_download("bench/many", cache_dir=${JSON.stringify(join(work, "hf-cache"))})\nprint(time.time()-t)`;
    const snapshotSeconds = await new Promise<number>((resolve, reject) =>
      execFile(
        python,
        ["-c", script],
        {
          env: {
            ...process.env,
            HF_ENDPOINT: url,
            HF_TOKEN: token,
            HF_HUB_DISABLE_XET: "1",
            HF_HUB_DISABLE_PROGRESS_BARS: "1",
          },
        },
        (error, stdout, stderr) =>
          error ? reject(new Error(stderr)) : resolve(Number(stdout.trim().split("\n").at(-1))),
      ),
    );

    // One-byte commits to a repository of 20,000 files: what a commit costs that changes one file.
    const oneByteCommitTo20000Files = {
      dataset: await measureCommitCost(api, hub.info.dataDir!, { type: "dataset" }),
      model: await measureCommitCost(api, hub.info.dataDir!, { type: "model" }),
    };

    const mibps = (seconds: number) => size / (1 << 20) / seconds;
    // CPU seconds per GiB moved: steadier than wall time on a shared machine (the hub's worker included).
    const cpuPerGiB = (seconds: number[]) => Number((median(seconds) / (size / 2 ** 30)).toFixed(2));
    const summary = (rounds: Rounds) => ({
      hubMiBps: Math.round(mibps(median(rounds.hub))),
      bareMiBps: Math.round(mibps(median(rounds.bare))),
      ratio: Number((median(rounds.bare) / median(rounds.hub)).toFixed(2)),
      hubCpuSecondsPerGiB: cpuPerGiB(rounds.hubCpu),
      bareCpuSecondsPerGiB: cpuPerGiB(rounds.bareCpu),
      hubPeakRssAboveIdleMiB: Math.round(rounds.peak - idle),
    });
    const result = {
      loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      fileMiB: FILE_MB,
      rounds: ROUNDS,
      download: summary(downloads),
      upload: summary(uploads),
      idleRssMiB: Math.round(idle),
      head64,
      snapshot1000: {
        seconds: Number(snapshotSeconds.toFixed(2)),
        filesPerSecond: Math.round(1000 / snapshotSeconds),
      },
      oneByteCommitTo20000Files,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const server of [hub, pipe, sink]) server.child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}

// BENCH_SCAN_UPLOADS=1: only uploads, alternating rounds with the scanner on and off (scan-uploads.ts).
if (process.env.BENCH_SCAN_UPLOADS) void import("./scan-uploads.js").then((bench) => bench.main());
else void main();
