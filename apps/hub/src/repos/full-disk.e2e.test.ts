import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";

const HUB_DIR = fileURLToPath(new URL("../..", import.meta.url));
const CHILD_HUB = fileURLToPath(new URL("../__fixtures__/child-hub.ts", import.meta.url));
/** The blob store's disk: a real filesystem this small, so that a larger upload fills it. */
const DISK_MIB = 16;
const MIB = 1024 * 1024;

let temp: ReturnType<typeof makeTempDir>;
let child: ChildProcess;
let url: string;
let auth: Record<string, string>;
let blobsDir: string;
/** What the hub process wrote on stderr and how it ended: shown when the test fails. */
let childErrors = "";

/**
 * The hub in its own process whose blob directory is a 16 MiB tmpfs. `unshare -rm` gives the process its own
 * user and mount namespaces, so mounting needs no root (as root it works the same) and the mount disappears
 * with the process.
 */
beforeAll(async () => {
  temp = makeTempDir();
  const dataDir = join(temp.dir, "data");
  blobsDir = join(dataDir, "blobs");
  mkdirSync(blobsDir, { recursive: true });
  child = spawn(
    "unshare",
    [
      "-rm",
      "sh",
      "-c",
      `mount -t tmpfs -o size=${DISK_MIB}m tmpfs "$0" && exec "$@"`,
      blobsDir,
      process.execPath,
      "--conditions=source",
      "--import",
      "tsx",
      CHILD_HUB,
      dataDir,
    ],
    { cwd: HUB_DIR, stdio: ["ignore", "pipe", "pipe"] },
  );
  const info = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      childErrors += chunk.toString();
    });
    child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once("exit", (code, signal) => {
      childErrors += `\n[the hub exited: code ${code}, signal ${signal}]`;
      reject(new Error(`the hub exited with ${code}: ${childErrors}`));
    });
  });
  url = info.url;
  auth = { Authorization: `Bearer ${info.token}` };
}, 60_000);
afterAll(async () => {
  if (child.exitCode === null) {
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  }
  temp.remove();
});

const json = { "Content-Type": "application/json" };

async function uploadLfs(content: Buffer): Promise<{ oid: string; status: number; body: string }> {
  const oid = createHash("sha256").update(content).digest("hex");
  const batch = await fetch(`${url}/alice/disk.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: { ...auth, ...json },
    body: JSON.stringify({ operation: "upload", objects: [{ oid, size: content.byteLength }] }),
  });
  const href = ((await batch.json()) as { objects: { actions: { upload: { href: string } } }[] }).objects[0]!
    .actions.upload.href;
  const response = await fetch(href, { method: "PUT", body: new Uint8Array(content) });
  return { oid, status: response.status, body: await response.text() };
}

function commitLfs(path: string, oid: string, size: number) {
  const lines = [
    { key: "header", value: { summary: `add ${path}` } },
    { key: "lfsFile", value: { path, algo: "sha256", oid, size } },
  ];
  return fetch(`${url}/api/models/alice/disk/commit/main`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
}

async function mainHead(): Promise<string> {
  const refs = (await (await fetch(`${url}/api/models/alice/disk/refs`, { headers: auth })).json()) as {
    branches: { name: string; targetCommit: string }[];
  };
  return refs.branches.find((branch) => branch.name === "main")!.targetCommit;
}

/** What the hub process sees in its blob store's temporary directories (through its own mount namespace). */
function partialFiles(): string[] {
  const tmpRoot = join(`/proc/${child.pid}/root`, blobsDir, "tmp");
  return readdirSync(tmpRoot).flatMap((dir) => readdirSync(join(tmpRoot, dir)));
}

describe("a full disk during an upload (a real 16 MiB filesystem)", () => {
  it("refuses the upload with 507, commits nothing, keeps the branch readable and removes the partial blob", async () => {
    onTestFailed(() => console.error(`the hub's stderr:\n${childErrors.slice(-4000)}`));
    const created = await fetch(`${url}/api/repos/create`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ name: "alice/disk" }),
    });
    expect(created.status).toBe(200);
    const before = await mainHead();

    const tooBig = randomBytes((DISK_MIB + 8) * MIB);
    const failed = await uploadLfs(tooBig);
    expect(failed.status).toBe(507);
    expect(JSON.parse(failed.body).error).toMatch(/storage is full/);
    expect(partialFiles()).toEqual([]);

    // The object was never stored: a commit naming it is refused and the branch has not moved.
    const refused = await commitLfs("big.bin", failed.oid, tooBig.byteLength);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await mainHead()).toBe(before);
    const tree = (await (
      await fetch(`${url}/api/models/alice/disk/tree/main`, { headers: auth })
    ).json()) as {
      path: string;
    }[];
    expect(tree.map((entry) => entry.path)).toEqual([".gitattributes"]);
    const attributes = await fetch(`${url}/alice/disk/resolve/main/.gitattributes`, { headers: auth });
    expect(attributes.status).toBe(200);
    expect(await attributes.text()).toContain("filter=lfs");

    // The space the partial blob took is free again: an upload that fits only without it succeeds.
    const fits = randomBytes((DISK_MIB - 4) * MIB);
    const stored = await uploadLfs(fits);
    expect(stored.status).toBe(200);
    expect((await commitLfs("fits.bin", stored.oid, fits.byteLength)).status).toBe(200);
    const download = await fetch(`${url}/alice/disk/resolve/main/fits.bin`, { headers: auth });
    expect(Buffer.from(await download.arrayBuffer()).equals(fits)).toBe(true);
  }, 60_000);
});
