import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { pseudoRandomBytes } from "../lfs-xet/__fixtures__/bytes.js";
import { casRequest, xetTokenFor } from "../lfs-xet/__fixtures__/xet-upload.js";
import { createCasService } from "../lfs-xet/cas-service.js";
import { chunkRanges } from "../lfs-xet/chunker.js";
import { hashToHex, hexToHash, loadXetHashing, type XetHash } from "../lfs-xet/hashes.js";
import { type ShardFileInfo, serializeShard } from "../lfs-xet/shard.js";
import { XetSigner } from "../lfs-xet/xet-tokens.js";
import { Compression, serializeXorb } from "../lfs-xet/xorb.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { createContentPuller } from "./content-pull.js";
import { upstreamCasGet } from "./mirror-content.js";
import { createUpstreamClient } from "./upstream-client.js";
import { xetPullSource } from "./xet-pull.js";

/**
 * Two hubs: `upstream` holds Xet files (uploaded as a client does: xorbs, then a shard), `mirror` pulls them
 * by reconstruction into its own Xet store. Revision two of the file changes one chunk, stored upstream as
 * hf_xet would: the unchanged chunks as ranges of the first xorb, the new one in a xorb of its own.
 */
const upstream = useTestHub();
const mirror = useTestHub();
const REPO = "alice/xet-source";
let aliceUpstream: string;
let mirrorRepoKey: number;

interface UpstreamFile {
  data: Uint8Array;
  sha256: string;
  xetHash: string;
}

async function postXorb(write: string, chunks: Uint8Array[]): Promise<XetHash> {
  const hashing = await loadXetHashing();
  const hash = hashing.xorbHash(chunks.map((c) => ({ hash: hashing.chunkHash(c), size: c.length })));
  const answer = await casRequest(
    upstream.url,
    "POST",
    `/v1/xorbs/default/${hashToHex(hash)}`,
    write,
    serializeXorb(chunks, Compression.Lz4),
  );
  expect(answer.status).toBe(200);
  return hash;
}

/** Registers upstream a file made of `terms` (chunk lists of uploaded xorbs). */
async function postFile(
  write: string,
  terms: Array<{ xorb: XetHash; start: number; chunks: Uint8Array[] }>,
): Promise<UpstreamFile> {
  const hashing = await loadXetHashing();
  const data = Buffer.concat(terms.flatMap((t) => t.chunks));
  const leaves = terms.flatMap((t) => t.chunks.map((c) => ({ hash: hashing.chunkHash(c), size: c.length })));
  const sha256 = createHash("sha256").update(data).digest("hex");
  const file: ShardFileInfo = {
    fileHash: hashing.fileHash(leaves),
    terms: terms.map((t) => ({
      xorbHash: t.xorb,
      unpackedBytes: t.chunks.reduce((n, c) => n + c.length, 0),
      chunkStart: t.start,
      chunkEnd: t.start + t.chunks.length,
    })),
    verification: terms.map((t) => hashing.rangeVerificationHash(t.chunks.map((c) => hashing.chunkHash(c)))),
    sha256: hexToHash(sha256),
  };
  const answer = await casRequest(
    upstream.url,
    "POST",
    "/v1/shards",
    write,
    serializeShard({ files: [file], xorbs: [] }),
  );
  expect(answer.status).toBe(200);
  return { data, sha256, xetHash: hashToHex(file.fileHash) };
}

let first: UpstreamFile;
let second: UpstreamFile;
/** A file of new chunks whose second half repeats its first (one range of one xorb, twice). */
let repeating: UpstreamFile;
let firstChunks: number;

beforeAll(async () => {
  aliceUpstream = await userToken(upstream.store, "alice");
  const created = await fetch(`${upstream.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${aliceUpstream}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: REPO, type: "model" }),
  });
  expect(created.status).toBe(200);
  const write = (await xetTokenFor(upstream.url, aliceUpstream, REPO, "write")).body.accessToken;

  const data = pseudoRandomBytes(3_000_000, 7);
  const chunks = chunkRanges(data).map((r) => data.subarray(r.start, r.end));
  const xorbA = await postXorb(write, chunks);
  first = await postFile(write, [{ xorb: xorbA, start: 0, chunks }]);
  firstChunks = chunks.length;

  // One chunk in the middle replaced: the rest stays where it is upstream.
  const k = Math.floor(chunks.length / 2);
  const changed = pseudoRandomBytes(40_000, 99);
  const xorbB = await postXorb(write, [changed]);
  second = await postFile(write, [
    { xorb: xorbA, start: 0, chunks: chunks.slice(0, k) },
    { xorb: xorbB, start: 0, chunks: [changed] },
    { xorb: xorbA, start: k + 1, chunks: chunks.slice(k + 1) },
  ]);

  const other = pseudoRandomBytes(1_000_000, 13);
  const otherChunks = chunkRanges(other).map((r) => other.subarray(r.start, r.end));
  const xorbC = await postXorb(write, otherChunks);
  repeating = await postFile(write, [
    { xorb: xorbC, start: 0, chunks: otherChunks },
    { xorb: xorbC, start: 0, chunks: otherChunks },
  ]);

  const aliceMirror = await userToken(mirror.store, "alice");
  const local = await fetch(`${mirror.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${aliceMirror}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: REPO, type: "model" }),
  });
  expect(local.status).toBe(200);
  mirrorRepoKey = (await mirror.store.repos.get("model", REPO))!.key;
}, 60_000);

async function mirrorCas() {
  const { signer, ready } = XetSigner.fromMeta(mirror.store.meta);
  await ready;
  return createCasService({
    xet: mirror.store.xet,
    gc: mirror.store.xetGc,
    blobs: await createFsBlobStore(join(mirror.dataDir, "blobs")),
    signer,
    casUrl: `${mirror.url}/xet-cas`,
  });
}

/** Pulls from upstream into the mirror's Xet store through a counting CAS, as the mirror's content route does. */
async function puller() {
  const cas = await mirrorCas();
  // Each lookup of where chunks already are, by its number of hashes (they are batched, not one per chunk).
  const locateCalls: number[] = [];
  const counted: typeof cas = {
    ...cas,
    locateChunks: (hashes) => {
      locateCalls.push(hashes.length);
      return cas.locateChunks(hashes);
    },
  };
  const tmpDir = join(mirror.dir, "pull-tmp");
  mkdirSync(tmpDir, { recursive: true });
  const contentPuller = createContentPuller({ tmpDir });
  const fetched = { bytes: 0 };
  const kept: string[] = [];
  const pull = async (file: UpstreamFile) => {
    const target = {
      sha256: file.sha256,
      size: file.data.length,
      xetHash: file.xetHash,
      repoKey: mirrorRepoKey,
    };
    const source = xetPullSource(
      {
        cas: counted,
        table: mirror.store.mirror,
        readToken: async () => (await xetTokenFor(upstream.url, aliceUpstream, REPO, "read")).body,
        casGet: upstreamCasGet(
          createUpstreamClient({
            upstreamUrl: upstream.url,
            upstreamToken: aliceUpstream,
            upstreamTimeoutMs: 5_000,
            mode: "pull-through",
          }),
        ),
        fetched: (bytes) => {
          fetched.bytes += bytes;
        },
      },
      target,
      async () => {
        kept.push(file.sha256);
      },
    );
    const parts: Buffer[] = [];
    for await (const part of await contentPuller.read(
      target,
      { start: 0, end: target.size - 1 },
      () => source,
    ))
      parts.push(part as Buffer);
    return Buffer.concat(parts);
  };
  return { pull, kept, cas, fetched, locateCalls };
}

describe("Xet pull", () => {
  it("reconstructs an upstream Xet file into the local Xet store, then a new revision fetches only its new chunk", async () => {
    const { pull, kept, cas, fetched, locateCalls } = await puller();
    expect((await pull(first)).equals(Buffer.from(first.data))).toBe(true);
    // Random bytes do not compress: the whole file came over once.
    expect(fetched.bytes).toBeGreaterThanOrEqual(first.data.length);
    expect(fetched.bytes).toBeLessThan(first.data.length * 1.01);
    // One lookup for all the new chunks (under one batch's bytes), none per chunk.
    expect(firstChunks).toBeGreaterThan(10);
    expect(locateCalls).toEqual([firstChunks]);
    await waitFor(() => kept.length === 1);
    const local = await cas.fileOfContent(mirrorRepoKey, first.sha256);
    expect(local?.hash).toBe(first.xetHash);
    expect(
      Buffer.concat(await collect(cas.read(local!, 0, local!.size - 1))).equals(Buffer.from(first.data)),
    ).toBe(true);

    fetched.bytes = 0;
    locateCalls.length = 0;
    expect((await pull(second)).equals(Buffer.from(second.data))).toBe(true);
    // Only the changed chunk (40 000 bytes and its header) came over.
    expect(fetched.bytes).toBeGreaterThan(40_000);
    expect(fetched.bytes).toBeLessThan(41_000);
    // One lookup per term held locally, one for the new chunk.
    expect(locateCalls.length).toBe(3);
    await waitFor(() => kept.length === 2);
    const secondLocal = await cas.fileOfContent(mirrorRepoKey, second.sha256);
    expect(secondLocal?.hash).toBe(second.xetHash);
    expect(
      Buffer.concat(await collect(cas.read(secondLocal!, 0, secondLocal!.size - 1))).equals(
        Buffer.from(second.data),
      ),
    ).toBe(true);
    // The chunks are the one copy: the blob store holds xorbs, not the files' bytes.
    expect(await mirror.store.xet.totalXorbBytes()).toBeLessThan(first.data.length + 41_000 + 4096);
  }, 60_000);

  it("stores a chunk the file repeats once, and reads the repeat from that one copy", async () => {
    const { pull, kept, cas } = await puller();
    const xorbBytesBefore = await mirror.store.xet.totalXorbBytes();
    expect((await pull(repeating)).equals(Buffer.from(repeating.data))).toBe(true);
    await waitFor(() => kept.length === 1);
    const local = await cas.fileOfContent(mirrorRepoKey, repeating.sha256);
    expect(local?.hash).toBe(repeating.xetHash);
    expect(
      Buffer.concat(await collect(cas.read(local!, 0, local!.size - 1))).equals(Buffer.from(repeating.data)),
    ).toBe(true);
    const added = (await mirror.store.xet.totalXorbBytes()) - xorbBytesBefore;
    expect(added).toBeGreaterThan(repeating.data.length / 2);
    expect(added).toBeLessThan(repeating.data.length / 2 + 4096);
  }, 60_000);
});

async function collect(pieces: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
