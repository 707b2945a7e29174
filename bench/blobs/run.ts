import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createRepo,
  download,
  hubApi,
  lfsUploadUrl,
  median,
  rss,
  rssSampler,
  type Server,
  serveChild,
  timed,
  upload,
  writeRandomFile,
} from "../repos/measure.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SERVE = join(HERE, "serve.ts");

/** Uploads and downloads the file through one hub, ROUNDS times each: seconds and peak RSS above idle. */
async function measureHub(hub: Server, file: string, oid: string, others: Server[]) {
  const { url, token } = hub.info as { url: string; token: string };
  const auth = { Authorization: `Bearer ${token}` };
  const api = hubApi(url, token);
  const size = FILE_MB << 20;
  await createRepo(api, "bench/big");
  const idle = rss(hub.child.pid!);
  const uploads: number[] = [];
  let uploadPeak = 0;
  const otherPeaks = others.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    // Rounds after the first send the same bytes under another oid: the hub streams them to the store,
    // hashing, and refuses them at the end, which costs what a fresh upload costs.
    const href = await lfsUploadUrl(api, "bench/big", oid, size, round);
    const sampler = rssSampler(hub.child.pid!);
    const otherSamplers = others.map((other) => rssSampler(other.child.pid!));
    uploads.push(
      await timed(() =>
        upload(href, file).catch((error) => {
          if (round === 0) throw error;
        }),
      ),
    );
    uploadPeak = Math.max(uploadPeak, sampler.stop());
    for (const [i, other] of otherSamplers.entries()) otherPeaks[i] = Math.max(otherPeaks[i]!, other.stop());
  }
  const line = (value: unknown) => JSON.stringify(value);
  await api("/api/models/bench/big/commit/main", {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: [
      line({ key: "header", value: { summary: "big" } }),
      line({ key: "lfsFile", value: { path: "big.bin", algo: "sha256", oid, size } }),
    ].join("\n"),
  });
  const downloads: number[] = [];
  let downloadPeak = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const sampler = rssSampler(hub.child.pid!);
    downloads.push(await timed(() => download(`${url}/bench/big/resolve/main/big.bin`, auth)));
    downloadPeak = Math.max(downloadPeak, sampler.stop());
  }
  const mibps = (seconds: number) => Math.round(FILE_MB / seconds);
  return {
    uploadMiBps: mibps(median(uploads)),
    downloadMiBps: mibps(median(downloads)),
    uploadSeconds: uploads.map((s) => Number(s.toFixed(2))),
    downloadSeconds: downloads.map((s) => Number(s.toFixed(2))),
    idleRssMiB: Math.round(idle),
    uploadPeakRssAboveIdleMiB: Math.round(uploadPeak - idle),
    downloadPeakRssAboveIdleMiB: Math.round(downloadPeak - idle),
    otherPeakRssMiB: otherPeaks.map(Math.round),
  };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "modelhub-bench-blobs-"));
  const servers: Server[] = [];
  try {
    const file = join(work, "big.bin");
    const oid = await writeRandomFile(file, FILE_MB);
    const s3 = await serveChild(SERVE, "s3");
    servers.push(s3);
    const fsHub = await serveChild(SERVE, "hub", "fs");
    servers.push(fsHub);
    const s3Hub = await serveChild(SERVE, "hub", "s3", s3.info.endpoint!);
    servers.push(s3Hub);
    const fsResult = await measureHub(fsHub, file, oid, []);
    const s3Result = await measureHub(s3Hub, file, oid, [s3]);
    const result = {
      fileMiB: FILE_MB,
      rounds: ROUNDS,
      fs: fsResult,
      s3: { ...s3Result, s3rverPeakRssMiB: s3Result.otherPeakRssMiB[0], otherPeakRssMiB: undefined },
      ratios: {
        uploadS3OverFs: Number((s3Result.uploadMiBps / fsResult.uploadMiBps).toFixed(2)),
        downloadS3OverFs: Number((s3Result.downloadMiBps / fsResult.downloadMiBps).toFixed(2)),
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const server of servers) server.child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
