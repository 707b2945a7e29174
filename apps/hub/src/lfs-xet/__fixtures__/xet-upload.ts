import { createHash } from "node:crypto";
import { chunkRanges } from "../chunker.js";
import { hashToHex, hexToHash, loadXetHashing, type XetHash } from "../hashes.js";
import type { ShardFileInfo } from "../shard.js";
import { Compression, serializeXorb } from "../xorb.js";
import { pseudoRandomBytes } from "./bytes.js";

/**
 * A file as a client uploads it: its chunks in one xorb, and the shard entry naming them (verification hashes
 * and the file's real sha256, so that a commit may reference it).
 */
export async function sampleUpload(seed: number, size = 700_000) {
  const hashing = await loadXetHashing();
  const data = pseudoRandomBytes(size, seed);
  const chunks = chunkRanges(data).map((r) => data.subarray(r.start, r.end));
  const chunkHashes = chunks.map((c) => hashing.chunkHash(c));
  const leaves = chunks.map((c, i) => ({ hash: chunkHashes[i] as XetHash, size: c.length }));
  const xorbHash = hashing.xorbHash(leaves);
  const xorb = serializeXorb(chunks, Compression.Lz4);
  const fileHash = hashing.fileHash(leaves);
  const sha256 = createHash("sha256").update(data).digest("hex");
  const file: ShardFileInfo = {
    fileHash,
    terms: [{ xorbHash, unpackedBytes: data.length, chunkStart: 0, chunkEnd: chunks.length }],
    verification: [hashing.rangeVerificationHash(chunkHashes)],
    // Hashes travel as u64 little-endian words; the sha256's string form is the plain digest.
    sha256: hexToHash(sha256),
  };
  return { data, sha256, xorb, xorbHex: hashToHex(xorbHash), fileHex: hashToHex(fileHash), file, chunkHashes };
}

/** A call to the hub's CAS API (under /xet-cas) with a Xet bearer token. */
export function casRequest(
  hubUrl: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${hubUrl}/xet-cas${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: body as BodyInit | undefined,
  });
}

/** A Xet token for a repository, as the hub hands it out. */
export async function xetTokenFor(
  hubUrl: string,
  hubToken: string,
  repo: string,
  scope: "read" | "write",
): Promise<{ status: number; body: { accessToken: string; casUrl: string; exp: number } }> {
  const response = await fetch(`${hubUrl}/api/models/${repo}/xet-${scope}-token/main`, {
    headers: { Authorization: `Bearer ${hubToken}` },
  });
  return { status: response.status, body: (await response.json()) as never };
}
