import { randomUUID } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "./git-process.js";
import type { RefUpdate } from "./git-push.js";

/**
 * Where one `git push` runs (docs/decisions/git-http.md, "Push"): a scratch bare repository that borrows the
 * served repository's objects (objects/info/alternates) and has its refs, so that receive-pack writes the
 * pushed objects there (in its quarantine while the hooks run) and never into what clones read. Its `update`
 * hook, run by receive-pack once per ref before it moves it, asks the hub over a Unix socket: the hub applies
 * the ref (git-push.ts) and answers ok, or the message git prints ("remote: ...") before it reports the ref
 * as rejected. The hook is a few lines run with this process's node; nothing of git's protocol is ours.
 */

/** The environment receive-pack gives its hooks that the hub needs to read the quarantined objects. */
const QUARANTINE_VARIABLES = [
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_QUARANTINE_PATH",
];

const HOOK_CLIENT = `"use strict";
const net = require("node:net");
const [ref, oldOid, newOid] = process.argv.slice(2);
const env = {};
for (const name of ${JSON.stringify(QUARANTINE_VARIABLES)}) if (process.env[name]) env[name] = process.env[name];
const socket = net.createConnection(process.env.MODELHUB_PUSH_SOCKET);
let answer = "";
socket.setEncoding("utf8");
socket.on("data", (data) => { answer += data; });
socket.on("end", () => {
  let parsed;
  try { parsed = JSON.parse(answer); } catch { parsed = { ok: false, message: "The hub gave no answer for " + ref + "." }; }
  if (parsed.ok) process.exit(0);
  process.stderr.write(parsed.message + "\\n");
  process.exit(1);
});
socket.on("error", (error) => { process.stderr.write("The hub did not answer: " + error.message + "\\n"); process.exit(1); });
socket.end(JSON.stringify({ ref, oldOid, newOid, env }));
`;

export type RefHandler = (update: RefUpdate, env: Record<string, string>, cwd: string) => Promise<void>;

export interface PushSession {
  /** The scratch repository receive-pack runs in. */
  dir: string;
  /** What receive-pack's environment must hold for its hook to reach this session. */
  env: Record<string, string>;
  /**
   * Ends the session: when the hub applied at least one of its refs, the objects receive-pack stored are
   * moved into the served repository first (adoptObjects), then the scratch repository is deleted.
   */
  close(): Promise<void>;
}

/** A scratch repository over `servedDir` (under `gitDir`) whose update hook calls `onRef`. */
export async function openPushSession(
  gitDir: string,
  servedDir: string,
  onRef: RefHandler,
  describeError: (error: unknown) => string,
): Promise<PushSession> {
  const dir = join(gitDir, "push", randomUUID());
  // A Unix socket's path is short (108 bytes): its own directory under the system's temporary one.
  const socketDir = await mkdtemp(join(tmpdir(), "modelhub-push-"));
  const socketPath = join(socketDir, "hook.sock");
  const cleanup = async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(socketDir, { recursive: true, force: true });
  };
  let server: Server | undefined;
  /** How many refs the hub applied: without any, nothing of this push is worth keeping. */
  let applied = 0;
  try {
    await mkdir(dir, { recursive: true });
    await runGit(dir, ["init", "--quiet", "--bare", "--initial-branch=main", "."]);
    await writeFile(join(dir, "objects", "info", "alternates"), `${join(servedDir, "objects")}\n`);
    const refs = (
      await runGit(servedDir, ["for-each-ref", "--format=create %(refname) %(objectname)"])
    ).toString();
    if (refs.trim()) await runGit(dir, ["update-ref", "--stdin"], refs);
    await writeFile(join(socketDir, "update-hook.cjs"), HOOK_CLIENT);
    const hook = join(dir, "hooks", "update");
    await mkdir(join(dir, "hooks"), { recursive: true });
    await writeFile(
      hook,
      `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(join(socketDir, "update-hook.cjs"))} "$@"\n`,
    );
    await chmod(hook, 0o755);
    server = createServer({ allowHalfOpen: true }, (socket) => {
      let request = "";
      socket.setEncoding("utf8");
      socket.on("data", (data: string) => {
        request += data;
      });
      socket.on("error", () => {});
      socket.on("end", () => {
        void (async () => {
          let answer: { ok: boolean; message?: string };
          try {
            const parsed = JSON.parse(request) as RefUpdate & { env: Record<string, string> };
            const env: Record<string, string> = {};
            for (const name of QUARANTINE_VARIABLES) {
              if (typeof parsed.env?.[name] === "string") env[name] = parsed.env[name];
            }
            await onRef({ ref: parsed.ref, oldOid: parsed.oldOid, newOid: parsed.newOid }, env, dir);
            applied++;
            answer = { ok: true };
          } catch (error) {
            answer = { ok: false, message: describeError(error) };
          }
          socket.end(JSON.stringify(answer));
        })();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(socketPath, resolve);
    });
  } catch (error) {
    server?.close();
    await cleanup();
    throw error;
  }
  return {
    dir,
    env: { MODELHUB_PUSH_SOCKET: socketPath },
    async close() {
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      try {
        if (applied > 0) await adoptObjects(join(dir, "objects"), join(servedDir, "objects"));
      } finally {
        await cleanup();
      }
    },
  };
}

/**
 * Moves the objects a push stored (receive-pack's pack, or loose objects for a small push) from the scratch
 * repository into the served one, so that the served repository need not rebuild the commits the hub has just
 * recorded under these very ids (bare-repository.ts takes a ref tip it already holds as it is). Adding
 * objects to a repository is always safe: they are named by their content, and ones no ref reaches are
 * never sent (upload-pack serves only what the refs reach). Everything receive-pack stored is connected
 * (it checks connectivity before any ref moves), so a commit found here brings its whole history. A pack
 * becomes visible to git with its index: the index is moved last.
 */
async function adoptObjects(from: string, to: string): Promise<void> {
  const packs = await readdir(join(from, "pack")).catch(() => [] as string[]);
  const order = (name: string) => (name.endsWith(".idx") ? 1 : 0);
  for (const name of packs.filter((each) => each.startsWith("pack-")).sort((a, b) => order(a) - order(b))) {
    await rename(join(from, "pack", name), join(to, "pack", name));
  }
  for (const fanout of await readdir(from)) {
    if (!/^[0-9a-f]{2}$/.test(fanout)) continue;
    await mkdir(join(to, fanout), { recursive: true });
    for (const name of await readdir(join(from, fanout))) {
      await rename(join(from, fanout, name), join(to, fanout, name));
    }
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
