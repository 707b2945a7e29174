/**
 * The Xet upload of bench:repos: a file uploaded as the Xet protocol uploads it against the hub's CAS API
 * (apps/hub/src/lfs-xet/cas-routes.ts), without the hf_xet client, whose own chunking and compression would
 * share the machine's two cores with the server measured: xorbs of at most 64 MiB of chunk data POSTed to
 * `/xet-cas/v1/xorbs/default/{hash}`, two at a time as hf_xet sends them, then the shard naming the file (terms, verification hashes, sha256) to
 * `/xet-cas/v1/shards`. Everything is built before the clock starts. The floor receives the very same
 * request bodies (bench/repos/serve.ts: sha256, write, fsync each).
 *
 * Chunks are 64 KiB pieces of pseudo-random bytes (the CDC chunker's mean size; the hub does not check where
 * a client cut): incompressible, so stored uncompressed, as a client stores such data. Each round varies
 * every chunk, so that no xorb is already stored and each round costs what a fresh upload costs.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { request } from "node:http";
import { hashToHex, hexToHash, loadXetHashing, type XetHash } from "../../apps/hub/src/lfs-xet/hashes.js";
import { type ShardFileInfo, serializeShard } from "../../apps/hub/src/lfs-xet/shard.js";
import { Compression, serializeXorb } from "../../apps/hub/src/lfs-xet/xorb.js";

const CHUNK_BYTES = 64 * 1024;
/** hf_xet's xorb size: 64 MiB of chunk data (the hub allows the headers on top). */
const CHUNKS_PER_XORB = 1024;

/** One upload: the xorbs in order, then the shard. */
export interface XetUpload {
  xorbs: { hex: string; body: Uint8Array }[];
  shard: Uint8Array;
  sha256: string;
  bytes: number;
}

/** The upload of `file`'s bytes, varied for `round` (the round number in every chunk's first four bytes). */
export async function prepareXetUpload(file: string, size: number, round: number): Promise<XetUpload> {
  const hashing = await loadXetHashing();
  const data = Buffer.allocUnsafe(size);
  const fd = openSync(file, "r");
  try {
    for (let at = 0; at < size; ) at += readSync(fd, data, at, size - at, at);
  } finally {
    closeSync(fd);
  }
  const sha256 = createHash("sha256");
  const xorbs: XetUpload["xorbs"] = [];
  const terms: ShardFileInfo["terms"] = [];
  const verification: XetHash[] = [];
  const leaves: { hash: XetHash; size: number }[] = [];
  for (let start = 0; start < size; start += CHUNK_BYTES * CHUNKS_PER_XORB) {
    const chunks: Uint8Array[] = [];
    for (let at = start; at < Math.min(size, start + CHUNK_BYTES * CHUNKS_PER_XORB); at += CHUNK_BYTES) {
      const chunk = data.subarray(at, Math.min(size, at + CHUNK_BYTES));
      chunk.writeUInt32LE(round, 0);
      chunk.writeUInt32LE(at / CHUNK_BYTES, 4);
      chunks.push(chunk);
      sha256.update(chunk);
    }
    const hashes = chunks.map((chunk) => hashing.chunkHash(chunk));
    const own = chunks.map((chunk, i) => ({ hash: hashes[i] as XetHash, size: chunk.byteLength }));
    const xorbHash = hashing.xorbHash(own);
    leaves.push(...own);
    xorbs.push({ hex: hashToHex(xorbHash), body: serializeXorb(chunks, Compression.None) });
    const unpacked = own.reduce((n, leaf) => n + leaf.size, 0);
    terms.push({ xorbHash, unpackedBytes: unpacked, chunkStart: 0, chunkEnd: chunks.length });
    verification.push(hashing.rangeVerificationHash(hashes));
  }
  const digest = sha256.digest("hex");
  const shard = serializeShard({
    files: [{ fileHash: hashing.fileHash(leaves), terms, verification, sha256: hexToHash(digest) }],
    xorbs: [],
  });
  const bytes = xorbs.reduce((n, xorb) => n + xorb.body.byteLength, shard.byteLength);
  return { xorbs, shard, sha256: digest, bytes };
}

/** Sends one request body; resolves with the answer's text, rejects on any status but 200. */
export function send(
  method: string,
  url: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      // A connection of its own: a kept-alive one may have been closed by the server while the next
      // round was being prepared (an EPIPE, not a measurement).
      { method, headers: { ...headers, "Content-Length": body.byteLength }, agent: false },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () => {
          const text = Buffer.concat(parts).toString();
          if (response.statusCode === 200) resolve(text);
          else reject(new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 300)}`));
        });
      },
    );
    call.on("error", (error) => reject(new Error(`${method} ${url}: ${error.message}`)));
    call.end(body);
  });
}

/**
 * Xorb requests in flight at once, as hf_xet sends them: a 200 MiB file's 4 xorbs went two at a time, each
 * next one started as one ended (measured against the hub, apps/hub/src/lfs-xet/file-sha256-chains.ts).
 */
export const XORBS_IN_FLIGHT = 2;

/** Runs `send` for every xorb in order, XORBS_IN_FLIGHT at once. */
async function eachXorb(
  xorbs: XetUpload["xorbs"],
  send: (xorb: XetUpload["xorbs"][number]) => Promise<void>,
) {
  let next = 0;
  const lane = async () => {
    while (next < xorbs.length) await send(xorbs[next++]!);
  };
  await Promise.all(Array.from({ length: XORBS_IN_FLIGHT }, lane));
}

/** The upload to a hub: its xorbs (each must be new), XORBS_IN_FLIGHT at once, then its shard. */
export async function uploadToHub(casUrl: string, xetToken: string, upload: XetUpload): Promise<void> {
  const auth = { Authorization: `Bearer ${xetToken}` };
  await eachXorb(upload.xorbs, async (xorb) => {
    const answer = await send("POST", `${casUrl}/v1/xorbs/default/${xorb.hex}`, xorb.body, auth);
    if (!(JSON.parse(answer) as { was_inserted: boolean }).was_inserted)
      throw new Error(`xorb ${xorb.hex} was stored already: the round measured no upload`);
  });
  await send("POST", `${casUrl}/v1/shards`, upload.shard, auth);
}

/** The same request bodies to the bare floor (serve.ts's PUT: sha256, write, fsync), sent the same way. */
export async function uploadToFloor(url: string, upload: XetUpload): Promise<void> {
  await eachXorb(upload.xorbs, async (xorb) => {
    await send("PUT", url, xorb.body);
  });
  await send("PUT", url, upload.shard);
}

/** A write token of the hub's Xet CAS for `repo` (the call huggingface_hub makes before an upload). */
export async function xetWriteToken(hubUrl: string, hubToken: string, repo: string) {
  const response = await fetch(`${hubUrl}/api/models/${repo}/xet-write-token/main`, {
    headers: { Authorization: `Bearer ${hubToken}` },
  });
  if (!response.ok) throw new Error(`xet-write-token: ${response.status} ${await response.text()}`);
  return (await response.json()) as { accessToken: string; casUrl: string };
}
