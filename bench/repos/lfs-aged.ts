/**
 * An LFS upload on a hub that has just started, then on the same hub after it has aged: idled
 * LFS_AGED_IDLE seconds (default 240) or, with LFS_AGED_SMALL=N, served N small LFS uploads instead. Prints
 * each upload's CPU s/GiB and MiB/s with the hub's uptime. The hub is started as `npm start` starts it;
 * LFS_AGED_NODE_FLAGS adds node flags for a diagnostic run (`--trace-gc`; its output goes to
 * LFS_AGED_LOG), never for a measured one. Written for issue 42 (an upload cost 3x on a hub up for minutes).
 *   node --conditions=source --import tsx repos/lfs-aged.ts
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { buildAsNpmStart, HUB_ROOT, hubSettingsEnvironment, npmStartServerArgs } from "../npm-start-hub.js";
import {
  benchToken,
  createRepo,
  hubApi,
  lfsUploadUrl,
  rss,
  timedWithCpu,
  upload,
  writeRandomFile,
} from "./measure.js";

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IDLE_SECONDS = Number(process.env.LFS_AGED_IDLE ?? 240);
const SMALL_UPLOADS = Number(process.env.LFS_AGED_SMALL ?? 0);
const ADMIN_TOKEN = "lfs-aged-admin-token";

async function main() {
  buildAsNpmStart(HUB_ROOT);
  const work = mkdtempSync(join(tmpdir(), "modelhub-lfs-aged-"));
  const dataDir = join(work, "data");
  const flags = (process.env.LFS_AGED_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, npmStartServerArgs(HUB_ROOT, flags), {
    cwd: HUB_ROOT,
    env: { ...process.env, ...hubSettingsEnvironment(dataDir, { ADMIN_TOKEN }) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const started = performance.now();
  const log = createWriteStream(process.env.LFS_AGED_LOG ?? join(work, "hub.log"));
  const uptime = () => (performance.now() - started) / 1000;
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the hub exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      log.write(`[${uptime().toFixed(1)}] ${line}\n`);
      const running = /^Modelhub is running at (\S+)/.exec(line);
      if (running) resolve(running[1]!.replace(/\/$/, ""));
    });
  });
  const mark = (text: string) => log.write(`[${uptime().toFixed(1)}] ### ${text}\n`);
  try {
    const api = hubApi(url, await benchToken(url, ADMIN_TOKEN));
    await createRepo(api, "bench/big");
    const part = join(work, "upload.bin");
    const oid = await writeRandomFile(part, UPLOAD_MB);
    const size = UPLOAD_MB * 2 ** 20;
    let round = 0;
    const uploads = async (label: string) => {
      for (let i = 0; i < ROUNDS; i++) {
        const r = round++;
        const href = await lfsUploadUrl(api, "bench/big", oid, size, r);
        mark(`${label} upload ${i} starts`);
        const at = uptime();
        const { wall, cpu } = await timedWithCpu(child.pid!, () =>
          upload(href, part).catch((error) => {
            if (r === 0) throw error;
          }),
        );
        mark(`${label} upload ${i} ends`);
        console.log(
          `${label}: up ${at.toFixed(0)} s, ${(UPLOAD_MB / wall).toFixed(0)} MiB/s, ` +
            `${(cpu / (UPLOAD_MB / 1024)).toFixed(2)} CPU s/GiB, RSS ${rss(child.pid!).toFixed(0)} MiB`,
        );
      }
    };
    await uploads("fresh");
    if (SMALL_UPLOADS > 0) {
      for (let i = 0; i < SMALL_UPLOADS; i++) {
        const smallOid = await writeRandomFile(join(work, `s${i}.bin`), 1);
        const href = await lfsUploadUrl(api, "bench/big", smallOid, 2 ** 20, 0);
        await upload(href, join(work, `s${i}.bin`));
        rmSync(join(work, `s${i}.bin`));
      }
      mark(`${SMALL_UPLOADS} small uploads done`);
    } else {
      mark(`idle ${IDLE_SECONDS} s`);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    }
    await uploads(
      SMALL_UPLOADS > 0 ? `after ${SMALL_UPLOADS} small uploads` : `after ${IDLE_SECONDS} s idle`,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    log.end();
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
