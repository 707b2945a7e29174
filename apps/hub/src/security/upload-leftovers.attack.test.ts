/**
 * Attack: fill the disk with uploads that never finish. A hub that crashes (or is killed, OOM) mid-upload
 * leaves the partial file in its blob store's temporary directory; nothing referenced it, so only the
 * temporary-directory sweep can take it back. Today's sweep spares anything younger than an hour, so a hub
 * restarted by its supervisor keeps the leftovers until some much later restart. With several replicas on
 * one blob directory, a sweep must still never take a live replica's upload.
 *
 * Real hubs in their own processes on loopback, raw HTTP: replica A is killed (SIGKILL) in the middle of an
 * upload while replica C has one in flight; then hub B starts on the same blob directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";

const HUB_DIR = fileURLToPath(new URL("../..", import.meta.url));
const CHILD_HUB = fileURLToPath(new URL("../__fixtures__/child-hub.ts", import.meta.url));
const MIB = 1024 * 1024;

let temp: ReturnType<typeof makeTempDir>;
/** The one blob directory every replica shares (each has its own database beside a link to it). */
let sharedBlobs: string;
const children: ChildProcess[] = [];
let hubB: RunningHub | undefined;

interface Replica {
  child: ChildProcess;
  url: string;
  auth: Record<string, string>;
}

/** A hub in its own process (child-hub.ts) whose `blobs` directory is the shared one. */
async function startReplica(name: string): Promise<Replica> {
  const dataDir = join(temp.dir, name);
  mkdirSync(dataDir, { recursive: true });
  symlinkSync(sharedBlobs, join(dataDir, "blobs"));
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", CHILD_HUB, dataDir], {
    cwd: HUB_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const info = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once("exit", (code) => reject(new Error(`replica ${name} exited with ${code}: ${errors}`)));
  });
  const replica = { child, url: info.url, auth: { Authorization: `Bearer ${info.token}` } };
  const created = await fetch(`${replica.url}/api/repos/create`, {
    method: "POST",
    headers: { ...replica.auth, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "alice/up" }),
  });
  expect(created.status, await created.text()).toBe(200);
  return replica;
}

/**
 * Starts an LFS upload of `content` and sends only its first MiB: the request stays open. Resolves once
 * the hub holds that MiB in a temporary file; `finish()` sends the rest and resolves with the status.
 */
async function startUpload(replica: Replica, content: Buffer) {
  const oid = createHash("sha256").update(content).digest("hex");
  const batch = await fetch(`${replica.url}/alice/up.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: { ...replica.auth, "Content-Type": "application/json" },
    body: JSON.stringify({ operation: "upload", objects: [{ oid, size: content.byteLength }] }),
  });
  const href = ((await batch.json()) as { objects: { actions: { upload: { href: string } } }[] }).objects[0]!
    .actions.upload.href;
  const before = new Set(partialFiles());
  const put = request(href, { method: "PUT", headers: { "Content-Length": String(content.byteLength) } });
  const answered = new Promise<number>((resolve, reject) => {
    put.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    put.on("error", reject);
  });
  answered.catch(() => {});
  put.write(content.subarray(0, MIB));
  let file: string | undefined;
  for (let i = 0; i < 200 && !file; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    file = partialFiles().find((path) => !before.has(path) && statSync(path).size >= MIB / 2);
  }
  if (!file) throw new Error("the upload never reached the blob store's temporary directory");
  return {
    file,
    abandon: () => put.destroy(),
    finish: () => {
      put.end(content.subarray(MIB));
      return answered;
    },
  };
}

/** Every file under the shared blob directory's `tmp/`. */
function partialFiles(): string[] {
  const tmpRoot = join(sharedBlobs, "tmp");
  let dirs: string[];
  try {
    dirs = readdirSync(tmpRoot);
  } catch {
    return [];
  }
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(join(tmpRoot, dir)).map((name) => join(tmpRoot, dir, name));
    } catch {
      return [];
    }
  });
}

const exists = (path: string) => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};

beforeAll(() => {
  temp = makeTempDir();
  sharedBlobs = join(temp.dir, "shared-blobs");
  mkdirSync(sharedBlobs, { recursive: true });
});
afterAll(async () => {
  await hubB?.close();
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      });
    }
  }
  temp.remove();
});

describe("temporary files of a crashed upload", () => {
  it("are removed when a hub starts on the blob directory; a live replica's upload is left alone", async () => {
    const [a, c] = await Promise.all([startReplica("a"), startReplica("c")]);
    const liveContent = randomBytes(3 * MIB);
    const live = await startUpload(c, liveContent);
    const crashed = await startUpload(a, randomBytes(3 * MIB));

    // Replica A dies mid-upload: nothing runs its clean-up.
    await new Promise((resolve) => {
      a.child.once("exit", resolve);
      a.child.kill("SIGKILL");
    });
    crashed.abandon();
    expect(exists(crashed.file)).toBe(true);

    // Its supervisor (or another replica) starts a hub on the same blob directory right away.
    const dataDir = join(temp.dir, "b");
    mkdirSync(dataDir, { recursive: true });
    symlinkSync(sharedBlobs, join(dataDir, "blobs"));
    hubB = await startTestHub({ dataDir, providerSim: false, catalogueDir: FIXTURE_CATALOGUE_DIR });

    expect(exists(crashed.file), "the crashed upload's partial file").toBe(false);
    expect(exists(live.file), "the live replica's partial file").toBe(true);
    // The live upload completes as if nothing happened.
    expect(await live.finish()).toBe(200);
  }, 120_000);
});
