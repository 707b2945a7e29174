import { createHash, randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { mkdir, readdir, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/** How often a live store marks its temporary directory as in use (and sweeps the others). */
export const TMP_HEARTBEAT_MS = 60_000;
/**
 * A temporary directory not marked for this long has no live owner. Many heartbeats, so that a busy event
 * loop or some clock skew between machines sharing the directory (NFS) never costs a live upload.
 */
export const TMP_STALE_MS = 15 * 60_000;

/**
 * Which machine and process namespace this process runs in: the kernel's boot id and the PID namespace, or
 * the host name where /proc has neither. Two processes with the same key see the same PIDs, so one can tell
 * whether the other is alive; containers (own PID namespaces) and other machines get other keys.
 */
function namespaceKey(): string {
  let identity: string;
  try {
    identity = `${readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    identity = hostname();
  }
  return createHash("sha256").update(identity).digest("hex").slice(0, 16);
}

/** Whether a process of this namespace is alive (EPERM: alive, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const OWNED = /^([0-9a-f]{16})-([0-9]+)-[0-9a-f]+$/;

/**
 * Opens this store's own temporary directory under `tmpRoot`, `<namespace>-<pid>-<random>`, and removes
 * those whose owner is gone. Several processes (replicas, the admin CLI, other stores in this process) may
 * share `tmpRoot`, on one machine or over a network file system, so ownership is decided this way:
 * - a directory of this machine and PID namespace whose process is dead goes at once: a hub restarted after
 *   a crash takes its predecessor's partial uploads back on start-up;
 * - any other (another machine, another container, a live or reused PID, older names) goes only when its
 *   owner has not marked it for TMP_STALE_MS: every live store touches its directory every TMP_HEARTBEAT_MS,
 *   even during one long upload (which alone would not change the directory's time).
 * Each heartbeat also sweeps, so leftovers of a replica elsewhere go within TMP_STALE_MS without a restart.
 * The timer does not keep the process alive and stops once the directory is gone (its store removed).
 */
export async function openTmpDir(tmpRoot: string): Promise<string> {
  const key = namespaceKey();
  const own = `${key}-${process.pid}-${randomBytes(6).toString("hex")}`;
  const dir = join(tmpRoot, own);
  await mkdir(dir, { recursive: true });

  async function sweep(): Promise<void> {
    const now = Date.now();
    for (const entry of await readdir(tmpRoot)) {
      if (entry === own) continue;
      const owner = OWNED.exec(entry);
      const ownerGone = owner?.[1] === key && !processAlive(Number(owner[2]));
      const path = join(tmpRoot, entry);
      const info = await stat(path).catch(() => undefined);
      if (info && (ownerGone || now - info.mtimeMs > TMP_STALE_MS)) {
        await rm(path, { recursive: true, force: true });
      }
    }
  }

  await sweep();
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(dir, now, now).then(
      () => sweep().catch(() => {}),
      () => clearInterval(heartbeat),
    );
  }, TMP_HEARTBEAT_MS);
  heartbeat.unref();
  return dir;
}
