/**
 * Uploads with the scanner on and off, in one run (`BENCH_SCAN_UPLOADS=1 npm run bench:repos -w bench`):
 * two hubs in their own processes, one running the scan workers and one not (files are queued either way),
 * and rounds that alternate which goes first. Each upload is an LFS PUT of a fresh text file (the secrets
 * scanner reads text whole: the scan is real work) and its commit; per upload: wall time and the hub
 * process's CPU seconds during the request, then (scanner on) the CPU and wall time of its scan, which runs
 * after the commit answered. The machine is shared, so CPU seconds are the steadier figure.
 * BENCH_SCAN_FILE_MB (default 128) and BENCH_SCAN_ROUNDS (default 4) set the size and the rounds.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { accountsService, startHub } from "@modelhub/hub";
import {
  cpuSeconds,
  createRepo,
  type HubApi,
  hubApi,
  median,
  type Server,
  serveChild,
  serveUntilTerm,
  upload,
} from "./measure.js";

const SCRIPT = fileURLToPath(import.meta.url);
const FILE_MB = Number(process.env.BENCH_SCAN_FILE_MB ?? 128);
const ROUNDS = Number(process.env.BENCH_SCAN_ROUNDS ?? 4);
const REPO = "bench/uploads";

/** One hub of the comparison: `serve on` runs the scan workers, `serve off` does not. */
function serve(mode: string): void {
  serveUntilTerm(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), `modelhub-bench-scan-${mode}-`));
    const hub = await startHub({ dataDir, providerSim: false, scanning: { workers: mode === "on" } });
    const accounts = accountsService(hub.store.accounts);
    await accounts.createUser({ name: "bench" });
    const { token } = await accounts.createToken("bench", { name: "bench", role: "write" });
    process.stdout.write(`${JSON.stringify({ url: hub.url, token })}\n`);
    return async () => {
      await hub.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });
}

/** Writes `mib` MiB of base64 text lines (no NUL: the secrets scanner reads it all); resolves with its sha256. */
async function writeTextFile(path: string, mib: number): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  const block = Buffer.from(
    `${randomBytes(3 << 18)
      .toString("base64")
      .replace(/(.{76})/g, "$1\n")}\n`,
  );
  const size = mib << 20;
  for (let written = 0; written < size; ) {
    const chunk = block.subarray(0, Math.min(block.length, size - written));
    hash.update(chunk);
    written += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return hash.digest("hex");
}

/** The LFS upload and its commit, as huggingface_hub does them. */
async function uploadAndCommit(api: HubApi, file: string, path: string, oid: string, size: number) {
  const batch = await api(`/${REPO}.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: { "Content-Type": "application/vnd.git-lfs+json" },
    body: JSON.stringify({ operation: "upload", objects: [{ oid, size }] }),
  });
  const href = ((await batch.json()) as { objects: { actions?: { upload: { href: string } } }[] }).objects[0]
    ?.actions?.upload.href;
  if (href) await upload(href, file);
  const lines = [
    { key: "header", value: { summary: `add ${path}` } },
    { key: "lfsFile", value: { path, algo: "sha256", oid, size } },
  ];
  await api(`/api/models/${REPO}/commit/main`, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
}

/** Waits until the file's scan is done (the scanner-on hub). */
async function scanDone(api: HubApi, path: string): Promise<void> {
  for (;;) {
    const report = (await (await api(`/api/models/${REPO}/scan/main/${path}`)).json()) as {
      scanState: string;
    };
    if (report.scanState === "done") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Sample {
  wall: number;
  cpu: number;
  scanWall?: number;
  scanCpu?: number;
}

export async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "modelhub-bench-scan-files-"));
  const hubs: Record<"on" | "off", Server> = {
    on: await serveChild(SCRIPT, "serve", "on"),
    off: await serveChild(SCRIPT, "serve", "off"),
  };
  const apis = {
    on: hubApi(hubs.on.info.url as string, hubs.on.info.token as string),
    off: hubApi(hubs.off.info.url as string, hubs.off.info.token as string),
  };
  const samples: Record<"on" | "off", Sample[]> = { on: [], off: [] };
  try {
    for (const mode of ["on", "off"] as const) await createRepo(apis[mode], REPO);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first: drift in the machine's load falls on both alike.
      const order = round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
      for (const mode of order) {
        const file = join(work, `data-${mode}-${round}.txt`);
        const oid = await writeTextFile(file, FILE_MB);
        const path = `data-${round}.txt`;
        const pid = hubs[mode].child.pid!;
        const cpuBefore = cpuSeconds(pid);
        const started = performance.now();
        await uploadAndCommit(apis[mode], file, path, oid, FILE_MB << 20);
        const sample: Sample = {
          wall: (performance.now() - started) / 1000,
          cpu: cpuSeconds(pid) - cpuBefore,
        };
        if (mode === "on") {
          const scanCpuBefore = cpuSeconds(pid);
          const scanStarted = performance.now();
          await scanDone(apis.on, path);
          sample.scanWall = (performance.now() - scanStarted) / 1000;
          sample.scanCpu = cpuSeconds(pid) - scanCpuBefore;
        }
        samples[mode].push(sample);
        rmSync(file);
      }
    }
    const round2 = (value: number) => Number(value.toFixed(2));
    const summary = (list: Sample[]) => ({
      uploadWallSeconds: round2(median(list.map((sample) => sample.wall))),
      uploadCpuSeconds: round2(median(list.map((sample) => sample.cpu))),
      ...(list[0]?.scanCpu !== undefined
        ? {
            scanAfterCommitWallSeconds: round2(median(list.map((sample) => sample.scanWall!))),
            scanAfterCommitCpuSeconds: round2(median(list.map((sample) => sample.scanCpu!))),
          }
        : {}),
      rounds: list.map((sample) => ({
        wall: round2(sample.wall),
        cpu: round2(sample.cpu),
        ...(sample.scanCpu !== undefined
          ? { scanWall: round2(sample.scanWall!), scanCpu: round2(sample.scanCpu) }
          : {}),
      })),
    });
    const result = {
      loadAverage: loadavg().map((load) => round2(load)),
      fileMiB: FILE_MB,
      rounds: ROUNDS,
      scannerOn: summary(samples.on),
      scannerOff: summary(samples.off),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const hub of Object.values(hubs)) hub.child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === "serve") serve(process.argv[3] ?? "on");
