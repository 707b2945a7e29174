import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRepo, downloadFile, uploadFiles } from "@huggingface/hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub, useTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import type { RunningHub } from "../start-hub.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import type { Store } from "../store/store.js";

/**
 * mirror:export on one hub, mirror:import on another, neither with an upstream: the second serves the
 * repositories to real clients byte for byte, and a bundle with one wrong byte imports nothing.
 */

const UPSTREAM = "https://huggingface.co";
const REPO = "up/model";
const source = useTestHub();
const temp = makeTempDir("mirror-bundle-");
let target: RunningHub;
let accessToken: string;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const config = Buffer.from('{"model_type":"gpt2","n_layer":2}\n');
const plainWeights = randomBytes(300_000);
const xetV1 = randomBytes(2_000_000);
// The second revision changes 64 KiB in the middle: its Xet file shares most chunks with the first.
const xetV2 = Buffer.from(xetV1);
randomBytes(65_536).copy(xetV2, 900_000);
let firstCommit: string;

async function admin(store: Store, dataDir: string, ...args: string[]) {
  const blobs = await createFsBlobStore(join(dataDir, "blobs"));
  const output = await runAdminCommand(args, store, [], {
    readStdin: async () => "",
    openBlobs: async () => blobs,
  });
  return (output as { json: Record<string, unknown> }).json;
}

beforeAll(async () => {
  accessToken = await userToken(source.store, "up");
  const repo = { type: "model" as const, name: REPO };
  const hubUrl = source.url;
  await createRepo({ repo, accessToken, hubUrl });
  const first = await uploadFiles({
    repo,
    accessToken,
    hubUrl,
    useXet: false,
    files: [
      { path: "config.json", content: new Blob([config]) },
      { path: "weights/plain.bin", content: new Blob([plainWeights]) },
    ],
  });
  firstCommit = first!.commit.oid;
  await uploadFiles({
    repo,
    accessToken,
    hubUrl,
    files: [{ path: "model.safetensors", content: new Blob([xetV1]) }],
  });
  await uploadFiles({
    repo,
    accessToken,
    hubUrl,
    files: [{ path: "model.safetensors", content: new Blob([xetV2]) }],
  });
  // What a pull-through leaves behind: the repository flagged as a mirror, its LFS content declared and
  // stored (the Xet file registered for the repository, as the Xet pull registers it).
  await source.store.db.run("UPDATE repos SET mirror_of = ? WHERE name = ?", [UPSTREAM, REPO]);
  for (const bytes of [plainWeights, xetV1, xetV2]) {
    await source.store.mirror.declareContent({ sha256: sha256(bytes), size: bytes.length });
    await source.store.mirror.markStored(sha256(bytes), new Date().toISOString());
  }
  target = await startTestHub({ dataDir: join(temp.dir, "target"), providerSim: false });
}, 90_000);

afterAll(async () => {
  await target?.close();
  temp.remove();
});

describe("mirror:export / mirror:import between two hubs with no upstream", () => {
  const bundle = () => join(temp.dir, "bundle.tar");

  it("exports the repository's history, its content once and its Xet chunks once", async () => {
    const report = await admin(source.store, source.dataDir, "mirror:export", bundle(), `model/${REPO}`);
    expect(report.repositories).toEqual([{ type: "model", id: REPO, commits: 4, refs: 1 }]);
    expect(report.missing).toEqual([]);
    expect(report.xetFiles).toBe(2);
    // Two 2 MB revisions sharing all but 64 KiB: far less than twice the bytes.
    expect(report.bytes as number).toBeLessThan(plainWeights.length + xetV1.length * 1.5);
    await expect(
      admin(source.store, source.dataDir, "mirror:export", bundle(), "model/nobody/here"),
    ).rejects.toThrow(/not found/i);
  }, 60_000);

  it("refuses a bundle with one wrong byte and creates nothing", async () => {
    const bytes = readFileSync(bundle());
    const at = bytes.indexOf(plainWeights.subarray(1000, 1064));
    expect(at).toBeGreaterThan(0);
    bytes[at] = bytes[at]! ^ 0xff;
    const tampered = join(temp.dir, "tampered.tar");
    writeFileSync(tampered, bytes);
    await expect(admin(target.store, join(temp.dir, "target"), "mirror:import", tampered)).rejects.toThrow(
      /Invalid mirror bundle: content\/[0-9a-f]{64} holds 300000 bytes hashing to/,
    );
    expect(await target.store.repos.get("model", REPO)).toBeUndefined();
    const truncated = join(temp.dir, "truncated.tar");
    writeFileSync(truncated, readFileSync(bundle()).subarray(0, 200_000));
    await expect(admin(target.store, join(temp.dir, "target"), "mirror:import", truncated)).rejects.toThrow(
      /Invalid mirror bundle/,
    );
    expect(await target.store.repos.get("model", REPO)).toBeUndefined();
  });

  it("imports it as a read-only mirror, twice without harm, listed with its cached bytes", async () => {
    const report = await admin(target.store, join(temp.dir, "target"), "mirror:import", bundle());
    expect(report.repositories).toEqual([{ id: REPO, type: "model", commits: 4, refs: 1, created: true }]);
    const again = await admin(target.store, join(temp.dir, "target"), "mirror:import", bundle());
    expect(again.repositories).toEqual([{ id: REPO, type: "model", commits: 0, refs: 1, created: false }]);
    expect((await target.store.repos.get("model", REPO))?.mirrorOf).toBe(UPSTREAM);
    const list = await admin(target.store, join(temp.dir, "target"), "mirror:list");
    expect(list.repositories).toMatchObject([
      {
        type: "model",
        id: REPO,
        upstream: UPSTREAM,
        cachedFiles: 3,
        cachedBytes: plainWeights.length + 2 * xetV1.length,
      },
    ]);
  }, 60_000);

  it("serves it to huggingface_hub (Xet and plain) and @huggingface/hub byte for byte", async () => {
    const gitattributes = await downloadFile({
      repo: { type: "model", name: REPO },
      path: ".gitattributes",
      hubUrl: source.url,
    });
    const expected = {
      ".gitattributes": sha256(new Uint8Array(await gitattributes!.arrayBuffer())),
      "config.json": sha256(config),
      "weights/plain.bin": sha256(plainWeights),
      "model.safetensors": sha256(xetV2),
    };
    const script = `
import hashlib, json, os, sys
from huggingface_hub import hf_hub_download, snapshot_download
folder = snapshot_download("${REPO}")
out = {}
for root, _, files in os.walk(folder):
    for name in files:
        path = os.path.join(root, name)
        out[os.path.relpath(path, folder)] = hashlib.sha256(open(path, "rb").read()).hexdigest()
old = hf_hub_download("${REPO}", "weights/plain.bin", revision="${firstCommit}")
out["old"] = hashlib.sha256(open(old, "rb").read()).hexdigest()
print(json.dumps(out))
`;
    for (const xet of [true, false]) {
      const env = hfClientEnv(
        target.url,
        join(temp.dir, `hf-home-${xet}`),
        xet ? { HF_HUB_DISABLE_XET: "" } : {},
      );
      const result = await runPython(["-c", script], env, 120_000);
      expect(result.stderr.slice(-2000)).not.toMatch(/Traceback/);
      expect(JSON.parse(result.stdout.trim().split("\n").at(-1)!)).toEqual({
        ...expected,
        old: sha256(plainWeights),
      });
    }
    const blob = await downloadFile({
      repo: { type: "model", name: REPO },
      path: "model.safetensors",
      hubUrl: target.url,
    });
    expect(sha256(new Uint8Array(await blob!.arrayBuffer()))).toBe(sha256(xetV2));
  }, 180_000);

  it("evicts its content on demand; the repository stays listed", async () => {
    const evicted = await admin(target.store, join(temp.dir, "target"), "mirror:evict", `model/${REPO}`);
    expect(evicted).toMatchObject({ evictedFiles: 3, storedBytes: 0 });
    const list = await admin(target.store, join(temp.dir, "target"), "mirror:list");
    expect(list.repositories).toMatchObject([{ id: REPO, cachedFiles: 0, cachedBytes: 0 }]);
    await expect(
      admin(target.store, join(temp.dir, "target"), "mirror:evict", "model/local/none"),
    ).rejects.toThrow(/not found/i);
  });
});
