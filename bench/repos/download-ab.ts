/**
 * `/resolve` downloads of several hub checkouts side by side in one run (issue 42): each checkout of AB_ROOTS
 * (this one by default; names AB_NAMES) built if stale and started as `npm start` starts it, each holding the
 * same BENCH_FILE_MB (512) MiB LFS file, beside the bare node:http floor (serve.ts) and nginx with sendfile
 * (nginx.ts) serving the first hub's stored copy. One download, then eight at once, BENCH_ROUNDS (5) rounds,
 * the order rotating from round to round so that a shared machine's load weighs on every server alike.
 * Per server: MiB/s and CPU s/GiB (its process tree, from /proc), medians and each round; ratios to nginx
 * and to the bare floor. BENCH_CPU_PROF=<dir> profiles the hubs (not a measured run then).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type NpmStartHub, REPO_ROOT, startNpmStartHub } from "../npm-start-hub.js";
import {
  benchToken,
  bigRepo,
  download,
  hubApi,
  median,
  serveChild,
  timedWithCpu,
  untilIdle,
  writeRandomFile,
} from "./measure.js";
import { startNginx } from "./nginx.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 512);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROOTS = (process.env.AB_ROOTS ?? REPO_ROOT).split(",").filter(Boolean);
const NAMES = process.env.AB_NAMES?.split(",") ?? ROOTS.map((root) => basename(root));
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

interface Server {
  name: string;
  pid: number;
  url: string;
  headers: Record<string, string>;
}

/** A hub from `root` holding `file` as bench/big's big.bin (an LFS file). */
async function hubWith(root: string, file: string, oid: string, size: number) {
  const hub = await startNpmStartHub({ ADMIN_TOKEN }, { root });
  const token = await benchToken(hub.url, ADMIN_TOKEN);
  const api = hubApi(hub.url, token);
  await bigRepo(api, file, oid, size);
  return { hub, headers: { Authorization: `Bearer ${token}` } };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "modelhub-bench-download-"));
  const hubs: NpmStartHub[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const big = join(work, "big.bin");
    const oid = await writeRandomFile(big, FILE_MB);
    const size = FILE_MB * 2 ** 20;
    const servers: Server[] = [];
    for (const [index, root] of ROOTS.entries()) {
      const { hub, headers } = await hubWith(root, big, oid, size);
      hubs.push(hub);
      stops.push(() => hub.stop());
      const url = `${hub.url}/bench/big/resolve/main/big.bin`;
      servers.push({ name: `hub ${NAMES[index] ?? index}`, pid: hub.pid, url, headers });
    }
    const stored = join(hubs[0]!.dataDir, "blobs", "sha256", oid.slice(0, 2), oid.slice(2, 4), oid);
    const bare = await serveChild(join(HERE, "serve.ts"), work);
    stops.push(() => void bare.child.kill("SIGTERM"));
    const bareUrl = `${bare.info.url}/?path=${encodeURIComponent(stored)}`;
    servers.push({ name: "bare node", pid: bare.child.pid!, url: bareUrl, headers: {} });
    const www = join(work, "www");
    mkdirSync(www);
    symlinkSync(join(hubs[0]!.dataDir, "blobs"), join(www, "blobs"));
    const nginx = await startNginx(www);
    stops.push(() => nginx.stop());
    const nginxUrl = `${nginx.url}/blobs/sha256/${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid}`;
    servers.push({ name: "nginx", pid: nginx.pid, url: nginxUrl, headers: {} });
    // A profiled hub never looks idle for long (the profiler's own thread): wait less for it.
    for (const hub of hubs) await untilIdle(hub.pid, process.env.BENCH_CPU_PROF ? 20 : 180);
    for (const server of servers) {
      const bytes = await download(server.url, server.headers);
      if (bytes !== size) throw new Error(`${server.name} sent ${bytes} bytes of ${size}`);
    }

    const load: number[] = [loadavg()[0]!];
    const measure = async (streams: number) => {
      const rounds = new Map(servers.map((server) => [server.name, [] as { mibps: number; cpu: number }[]]));
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < servers.length; i++) {
          const server = servers[(i + round) % servers.length]!;
          const { wall, cpu } = await timedWithCpu(server.pid, () =>
            Promise.all(Array.from({ length: streams }, () => download(server.url, server.headers))),
          );
          const gib = (streams * size) / 2 ** 30;
          rounds.get(server.name)!.push({ mibps: (gib * 1024) / wall, cpu: cpu / gib });
        }
        load.push(loadavg()[0]!);
      }
      return rounds;
    };
    const tables = [
      { title: `one ${FILE_MB} MiB download`, rounds: await measure(1) },
      { title: `eight ${FILE_MB} MiB downloads at once`, rounds: await measure(8) },
    ];
    const lines = [
      `${ROUNDS} rounds, order rotated; medians, each round in brackets; load average (1 min) during the run ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}`,
    ];
    for (const { title, rounds } of tables) {
      const medians = new Map(
        [...rounds].map(([name, list]) => [
          name,
          { mibps: median(list.map((r) => r.mibps)), cpu: median(list.map((r) => r.cpu)) },
        ]),
      );
      const nginxMibps = medians.get("nginx")!.mibps;
      const bareFigures = medians.get("bare node")!;
      lines.push(
        "",
        title,
        "| server | MiB/s | CPU s/GiB | x nginx MiB/s | x bare MiB/s | x bare CPU | rounds MiB/s | rounds CPU s/GiB |",
        "|---|---|---|---|---|---|---|---|",
        ...[...rounds].map(([name, list]) => {
          const { mibps, cpu } = medians.get(name)!;
          return `| ${name} | ${mibps.toFixed(0)} | ${cpu.toFixed(2)} | ${(mibps / nginxMibps).toFixed(2)}x | ${(mibps / bareFigures.mibps).toFixed(2)}x | ${(cpu / bareFigures.cpu).toFixed(2)}x | ${list.map((r) => r.mibps.toFixed(0)).join(", ")} | ${list.map((r) => r.cpu.toFixed(2)).join(", ")} |`;
        }),
      );
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
