import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { createCasService } from "../lfs-xet/cas-service.js";
import { XetSigner } from "../lfs-xet/xet-tokens.js";
import { Compression, serializeXorb } from "../lfs-xet/xorb.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { LOCAL_IDS, UPSTREAM_IDS, useTwoHubs } from "./__fixtures__/two-hubs.js";
import { ContentMismatchError, TransferCutError, TransferStalledError } from "./content-pull.js";
import { createMirrorContent, type MirrorContent, openPullDir } from "./mirror-content.js";
import { OPEN_MIRROR_POLICY } from "./mirror-policy.js";
import { createUpstreamClient, UpstreamStatusError, UpstreamUnavailableError } from "./upstream-client.js";

/**
 * The mirror's content pull against a real upstream hub behind the fault-injecting proxy: plain LFS and Xet
 * files byte-identical, one upstream transfer for concurrent readers, and every fault (cut, wrong bytes,
 * 429, 5xx, a hang, a stall) leaving nothing stored, the next read succeeding.
 */
const hubs = useTwoHubs();
const seeded = () => hubs.seeded.publicModel;
const LFS_PATH = "pytorch_model.bin";
const XET_PATH = "model.safetensors";

let blobs: BlobStore;
let content: MirrorContent;
let tmpDir: string;
let repo: RepoRecord;
let commitOid: string;
let xetHash: string;

/** A fresh content service (its own puller), over the mirror hub's store and blob directory. */
async function newContent(idleTimeoutMs = 30_000, upstreamTimeoutMs = 5_000): Promise<MirrorContent> {
  const { signer, ready } = XetSigner.fromMeta(hubs.mirror.store.meta);
  await ready;
  return createMirrorContent({
    upstream: createUpstreamClient({ ...hubs.mirror.settings, upstreamTimeoutMs }),
    mode: "pull-through",
    table: hubs.mirror.store.mirror,
    blobs,
    cas: createCasService({
      xet: hubs.mirror.store.xet,
      gc: hubs.mirror.store.xetGc,
      blobs,
      signer,
      casUrl: `${hubs.mirror.url}/xet-cas`,
    }),
    tmpDir,
    idleTimeoutMs,
    policy: OPEN_MIRROR_POLICY,
  });
}

beforeAll(async () => {
  blobs = await createFsBlobStore(join(hubs.mirror.dataDir, "blobs"));
  tmpDir = await openPullDir(hubs.mirror.dataDir);
  content = await newContent();
  const info = (await (
    await fetch(`${hubs.upstream.directUrl}/api/models/${UPSTREAM_IDS.publicModel}`)
  ).json()) as {
    sha: string;
  };
  commitOid = info.sha;
  const entries = (await (
    await fetch(`${hubs.upstream.directUrl}/api/models/${UPSTREAM_IDS.publicModel}/paths-info/${commitOid}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ paths: [XET_PATH] }),
    })
  ).json()) as Array<{ xetHash?: string }>;
  xetHash = entries[0]?.xetHash as string;
  expect(xetHash).toMatch(/^[0-9a-f]{64}$/);
  // Upstream's id and type (for its URLs) on a local repository's key (the Xet file is registered for it):
  // the repository row itself is the mirror service's business, not this test's.
  const local = (await hubs.mirror.store.repos.get("model", LOCAL_IDS.local)) as RepoRecord;
  repo = { ...local, id: UPSTREAM_IDS.publicModel, mirrorOf: hubs.upstream.url };
}, 120_000);

const fileOf = (path: string) => {
  const seededFile = seeded().files[path]!;
  return { path, sha256: seededFile.sha256, size: seededFile.content.length, content: seededFile.content };
};

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function outcome(open: Promise<Readable>): Promise<{ received: number; error?: Error }> {
  let received = 0;
  try {
    for await (const part of await open) received += (part as Buffer).length;
    return { received };
  } catch (error) {
    return { received, error: error as Error };
  }
}

const resolveCalls = (path: string) =>
  hubs.upstream.proxy.requests.filter((r) => r.url.includes(`/resolve/${commitOid}/${path}`)).length;

/** The intercept answers upstream's resolve of `path` itself (a fault); every other request passes. */
function breakResolve(path: string, fault: (res: import("node:http").ServerResponse) => void) {
  hubs.upstream.proxy.intercept = (req, res) => {
    if (!req.url?.includes(`/resolve/${commitOid}/${path}`)) return false;
    fault(res);
    return true;
  };
}

async function expectNothingKept(sha256: string) {
  expect(await blobs.head(sha256)).toBeUndefined();
  expect((await hubs.mirror.store.mirror.content(sha256))?.stored ?? false).toBe(false);
  expect(readdirSync(tmpDir)).toEqual([]);
  expect(content.isReading(sha256)).toBe(false);
}

describe("mirror content faults", () => {
  const file = fileOf(LFS_PATH);
  const half = Math.floor(file.size / 2);
  const whole = { start: 0, end: file.size - 1 };
  const read = () => content.open(repo, commitOid, file, whole);

  const faults: Array<[string, (res: import("node:http").ServerResponse) => void, unknown]> = [
    [
      "cuts the transfer half way",
      (res) => {
        res.writeHead(200, { "Content-Length": String(file.size) });
        res.write(file.content.subarray(0, half), () => res.socket?.destroy());
      },
      TransferCutError,
    ],
    [
      "serves bytes that do not match the sha256",
      (res) => {
        const wrong = Buffer.from(file.content);
        wrong[half] = (wrong[half] as number) ^ 0xff;
        res.writeHead(200, { "Content-Length": String(file.size) });
        res.end(wrong);
      },
      ContentMismatchError,
    ],
    [
      "answers 429",
      (res) => res.writeHead(429, { "Content-Type": "application/json" }).end('{"error":"slow down"}'),
      UpstreamStatusError,
    ],
    ["answers 503", (res) => res.writeHead(503).end("maintenance"), UpstreamStatusError],
  ];
  for (const [what, fault, errorClass] of faults) {
    it(`keeps nothing when upstream ${what}`, async () => {
      breakResolve(LFS_PATH, fault);
      const failed = await outcome(read());
      hubs.upstream.proxy.intercept = undefined;
      expect(failed.error).toBeInstanceOf(errorClass as new () => Error);
      expect(failed.received).toBeLessThan(file.size);
      await expectNothingKept(file.sha256);
    });
  }

  it("keeps nothing when upstream stalls mid-body", async () => {
    const stalling = await newContent(300);
    breakResolve(LFS_PATH, (res) => {
      res.writeHead(200, { "Content-Length": String(file.size) });
      res.write(file.content.subarray(0, half));
    });
    const started = Date.now();
    const failed = await outcome(stalling.open(repo, commitOid, file, whole));
    hubs.upstream.proxy.intercept = undefined;
    expect(failed.error).toBeInstanceOf(TransferStalledError);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectNothingKept(file.sha256);
  });

  it("keeps nothing when upstream's Xet storage stalls mid-xorb", async () => {
    const xetFile = fileOf(XET_PATH);
    await hubs.mirror.store.mirror.declareContent({ sha256: xetFile.sha256, size: xetFile.size, xetHash });
    const stalling = await newContent(300);
    hubs.upstream.proxy.intercept = (req, res) => {
      if (!req.url?.includes("/v1/fetch/")) return false;
      res.writeHead(206, { "Content-Length": "100000" });
      // The start of a real chunk (its header announces 50 000 bytes), then nothing: the pull waits for the rest.
      res.write(serializeXorb([Buffer.alloc(50_000, 7)], Compression.None).subarray(0, 1000));
      return true;
    };
    const failed = await outcome(
      stalling.open(repo, commitOid, xetFile, { start: 0, end: xetFile.size - 1 }),
    );
    hubs.upstream.proxy.intercept = undefined;
    expect(failed.error).toBeInstanceOf(TransferStalledError);
    expect(await hubs.mirror.store.xet.file(xetHash)).toBeUndefined();
    await expectNothingKept(xetFile.sha256);
  });

  it("fails fast when upstream hangs before answering", async () => {
    const impatient = await newContent(30_000, 500);
    await hubs.upstream.proxy.setMode("hang");
    const started = Date.now();
    const failed = await outcome(impatient.open(repo, commitOid, file, whole));
    await hubs.upstream.proxy.setMode("pass");
    expect(failed.error).toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectNothingKept(file.sha256);
  });
});

describe("mirror content", () => {
  // After every fault above, on the same content service: the next read retries cleanly.
  it("fetches a plain LFS file once for concurrent readers, byte-identical, and stores it", async () => {
    const file = fileOf(LFS_PATH);
    const before = resolveCalls(LFS_PATH);
    const readers = Array.from({ length: 8 }, () =>
      content.open(repo, commitOid, file, { start: 0, end: file.size - 1 }),
    );
    const ranged = content.open(repo, commitOid, file, { start: 1000, end: 1999 });
    for (const body of await Promise.all(readers.map(async (r) => collect(await r)))) {
      expect(body.equals(file.content)).toBe(true);
    }
    expect((await collect(await ranged)).equals(file.content.subarray(1000, 2000))).toBe(true);
    expect(resolveCalls(LFS_PATH) - before).toBe(1);
    await expect.poll(async () => (await hubs.mirror.store.mirror.content(file.sha256))?.stored).toBe(true);
    expect((await blobs.head(file.sha256))?.size).toBe(file.size);
  });

  it("prefetches a file without serving it, resolving once it is stored", async () => {
    const file = fileOf("pytorch_model.bin");
    await blobs.delete(file.sha256);
    await content.fetch(repo, commitOid, file);
    expect((await hubs.mirror.store.mirror.content(file.sha256))?.stored).toBe(true);
    expect((await blobs.head(file.sha256))?.size).toBe(file.size);
  });

  it("pulls a Xet file by reconstruction into the local Xet store, not the blob store", async () => {
    const file = fileOf(XET_PATH);
    await hubs.mirror.store.mirror.declareContent({ sha256: file.sha256, size: file.size, xetHash });
    const body = await collect(await content.open(repo, commitOid, file, { start: 0, end: file.size - 1 }));
    expect(body.equals(file.content)).toBe(true);
    await expect.poll(async () => (await hubs.mirror.store.mirror.content(file.sha256))?.stored).toBe(true);
    expect((await hubs.mirror.store.xet.file(xetHash))?.sha256).toBe(file.sha256);
    expect(await blobs.head(file.sha256)).toBeUndefined();
    // Not through upstream's plain download.
    expect(resolveCalls(XET_PATH)).toBe(0);
  });
});
