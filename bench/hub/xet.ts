/**
 * Xet storage on the hub: deduplication and throughput with the real client (huggingface_hub + hf_xet from
 * .venv) on loopback, side by side with the LFS path of the same hub in one run.
 *
 *   npm run bench:hub-xet -w bench            (XET_BENCH_MB=1024 for the issue's 1 GiB figures)
 *
 * Bytes sent are counted by a pass-through proxy in front of the hub (the CAS URL the hub hands out points
 * at it): request bodies of POST /xet-cas/v1/xorbs and /v1/shards. Bytes stored: the xorbs' sizes in the
 * hub's database. Hub RSS: this process (the hub runs in-process; clients are Python subprocesses).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { userToken } from "../../apps/hub/src/__fixtures__/accounts.js";
import { startHub } from "../../apps/hub/src/start-hub.js";

const MB = Number(process.env.XET_BENCH_MB ?? 256);
const SIZE = MB * 1024 * 1024;
const PYTHON = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "xet-bench-"));

// Counting proxy: forwards everything to the hub, counts upload bodies to the CAS.
let target = "";
const sent = { xorbs: 0, shards: 0 };
const proxy = createServer((req, res) => {
  const url = new URL(req.url ?? "/", target);
  const forward = request(url, { method: req.method, headers: req.headers }, (upstream) => {
    if (process.env.XET_BENCH_TRACE && url.pathname.startsWith("/xet-cas/v1/chunks")) {
      console.error(`${req.method} ${url.pathname} -> ${upstream.statusCode}`);
    }
    res.writeHead(upstream.statusCode ?? 502, upstream.headers);
    upstream.pipe(res);
  });
  req.on("data", (chunk: Buffer) => {
    if (req.method === "POST" && url.pathname.startsWith("/xet-cas/v1/xorbs/")) sent.xorbs += chunk.length;
    if (req.method === "POST" && url.pathname === "/xet-cas/v1/shards") sent.shards += chunk.length;
  });
  req.pipe(forward);
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const hub = await startHub({ dataDir: join(dir, "data"), providerSim: false, publicUrl: proxyUrl });
target = hub.url;
const token = await userToken(hub.store, "bench");

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

function writeRandomFile(path: string, size: number): void {
  const fd = openSync(path, "w");
  for (let at = 0; at < size; at += 16 * 1024 * 1024)
    writeSync(fd, randomBytes(Math.min(16 * 1024 * 1024, size - at)));
  closeSync(fd);
}

/**
 * A copy of `source` with `fraction` of its bytes replaced, in `places` separate runs (patched in place
 * rather than read whole, so the bench's own memory does not blur the hub's).
 */
function writeEditedCopy(source: string, path: string, fraction: number, places: number): void {
  copyFileSync(source, path);
  const size = statSync(path).size;
  const run = Math.floor((size * fraction) / places);
  const fd = openSync(path, "r+");
  for (let i = 0; i < places; i++)
    writeSync(fd, randomBytes(run), 0, run, Math.floor(((i + 0.5) * size) / places));
  closeSync(fd);
}

/** Runs a client script; asynchronously, since the hub it calls runs in this process's event loop. */
function python(code: string, env: Record<string, string> = {}): Promise<void> {
  const child = execFile(PYTHON, ["-c", code], {
    env: {
      PATH: process.env.PATH ?? "",
      HF_ENDPOINT: proxyUrl,
      HF_TOKEN: token,
      HF_HOME: join(dir, `hf-${Math.random()}`),
      HF_HUB_DISABLE_PROGRESS_BARS: "1",
      HF_HUB_DISABLE_TELEMETRY: "1",
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  child.stderr?.pipe(process.stderr);
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`client exited with ${code}`)))),
  );
}

const storedBytes = () => hub.store.xet.totalXorbBytes();

interface Row {
  step: string;
  seconds: number;
  mbPerSecond: number;
  sentBytes: number;
  storedBytes: number;
  peakRssMb: number;
  startRssMb: number;
}
const rows: Row[] = [];
async function measure(step: string, work: () => Promise<void>, bytes = SIZE): Promise<void> {
  sent.xorbs = 0;
  sent.shards = 0;
  peakRss = process.memoryUsage().rss;
  const startRss = peakRss;
  const storedBefore = await storedBytes();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 60));
  rows.push({
    step,
    seconds: Math.round(seconds * 100) / 100,
    mbPerSecond: Math.round(bytes / 1024 / 1024 / seconds),
    sentBytes: sent.xorbs + sent.shards,
    storedBytes: (await storedBytes()) - storedBefore,
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    startRssMb: Math.round(startRss / 1024 / 1024),
  });
}

const original = join(dir, "original.bin");
const edited = join(dir, "edited.bin");
const other = join(dir, "other.bin");
writeRandomFile(original, SIZE);
writeEditedCopy(original, edited, 0.02, 5);
writeRandomFile(other, SIZE);

const upload = (repo: string, file: string, name: string) =>
  `from huggingface_hub import HfApi\napi=HfApi()\napi.create_repo("bench/${repo}", exist_ok=True)\napi.upload_file(path_or_fileobj=${JSON.stringify(file)}, path_in_repo=${JSON.stringify(name)}, repo_id="bench/${repo}")`;
const download = (repo: string, name: string) =>
  `from huggingface_hub import hf_hub_download\nhf_hub_download("bench/${repo}", ${JSON.stringify(name)})`;

await measure("xet upload (new file)", () => python(upload("xet", original, "original.bin")));
await measure("xet upload (copy, 2% changed in 5 places)", () => python(upload("xet", edited, "edited.bin")));
await measure("xet upload (identical file, other repository)", () =>
  python(upload("xet-copy", original, "original.bin")),
);
await measure("xet download (hf_xet)", () => python(download("xet", "original.bin")));
await measure("xet file, plain HTTP download (hub reconstructs)", () =>
  python(download("xet", "original.bin"), { HF_HUB_DISABLE_XET: "1" }),
);
await measure("lfs upload (new file)", () =>
  python(upload("lfs", other, "other.bin"), { HF_HUB_DISABLE_XET: "1" }),
);
await measure("lfs download", () => python(download("lfs", "other.bin"), { HF_HUB_DISABLE_XET: "1" }));

clearInterval(sampler);
console.log(`\nXet vs LFS on one hub, ${MB} MiB files (random bytes), loopback\n`);
console.log("| step | s | MiB/s | bytes sent | bytes stored | hub RSS MiB: start → peak |");
console.log("| --- | --: | --: | --: | --: | --: |");
for (const r of rows) {
  console.log(
    `| ${r.step} | ${r.seconds} | ${r.mbPerSecond} | ${r.sentBytes} (${((100 * r.sentBytes) / SIZE).toFixed(2)}%) | ${r.storedBytes} (${((100 * r.storedBytes) / SIZE).toFixed(2)}%) | ${r.startRssMb} → ${r.peakRssMb} |`,
  );
}
await hub.close();
proxy.close();
rmSync(dir, { recursive: true, force: true });
