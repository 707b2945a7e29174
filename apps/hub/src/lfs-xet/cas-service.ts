import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import type { XetQuotaCheck } from "../limits/storage-quotas.js";
import { BlobMismatchError, type BlobStore } from "../storage/blob-store.js";
import { inThreadHash, offThreadHash } from "../storage/off-thread-hash.js";
import { keyedBlake3 } from "./blake3.js";
import { hashesEqual, hashToHex, hexToHash, loadXetHashing, type XetHashing } from "./hashes.js";
import { parseShard, type ShardFileInfo, serializeShard } from "./shard.js";
import { type XetGcTable, XorbNotStoredError } from "./xet-gc-table.js";
import type { XetChunkRow, XetFileRow, XetTable, XetTermRow } from "./xet-table.js";
import { FETCH_URL_SECONDS, type XetSigner } from "./xet-tokens.js";
import {
  decodeChunk,
  MalformedXorbError,
  parseXorbChunks,
  type VerifiedChunk,
  XorbHashMismatchError,
} from "./xorb.js";
import { fileSha256FromUploads, offThreadXorbVerification, uploadsEnded } from "./xorb-verify-pool.js";

/** Files at least this large have their sha256 computed off the event loop (a round trip costs less then). */
const OFF_THREAD_SHA256_BYTES = 8 * 1024 * 1024;

/** A shard or xorb the CAS refuses (400): malformed, not matching its hash, or naming what is not stored. */
export class CasRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CasRejectedError";
  }
}

/** The xorb is being garbage-collected right now (503): once it is gone, the same upload succeeds. */
export class CasBusyError extends Error {
  constructor(xorb: string) {
    super(`Xorb ${xorb} is being removed by garbage collection: retry the upload in a few seconds.`);
    this.name = "CasBusyError";
  }
}

export interface CasDeps {
  xet: XetTable;
  gc: XetGcTable;
  blobs: BlobStore;
  signer: XetSigner;
  /** Base URL of the CAS API (the `casUrl` handed out with tokens). */
  casUrl: string;
}

export interface ReconstructionTerm {
  hash: string;
  unpacked_length: number;
  range: { start: number; end: number };
}

export interface FetchInfo {
  range: { start: number; end: number };
  url: string;
  url_range: { start: number; end: number };
}

export interface Reconstruction {
  offset_into_first_range: number;
  terms: ReconstructionTerm[];
  fetch_info: Record<string, FetchInfo[]>;
}

/** Version 2 of the answer (what @huggingface/hub asks for): fetches grouped per xorb, one range per URL here. */
export interface ReconstructionV2 {
  offset_into_first_range: number;
  terms: ReconstructionTerm[];
  xorbs: Record<
    string,
    Array<{
      url: string;
      ranges: Array<{ chunks: { start: number; end: number }; bytes: { start: number; end: number } }>;
    }>
  >;
}

/** The version 2 form of a reconstruction: the same fetches, each as a URL with its one signed range. */
export function toReconstructionV2(plan: Reconstruction): ReconstructionV2 {
  const xorbs: ReconstructionV2["xorbs"] = {};
  for (const [hash, fetches] of Object.entries(plan.fetch_info)) {
    xorbs[hash] = fetches.map((f) => ({ url: f.url, ranges: [{ chunks: f.range, bytes: f.url_range }] }));
  }
  return { offset_into_first_range: plan.offset_into_first_range, terms: plan.terms, xorbs };
}

/** One piece of a file: chunks [start, end) of a xorb, and the bytes of it the range keeps. */
interface Segment {
  xorb: string;
  chunks: XetChunkRow[];
  start: number;
  end: number;
}

export function createCasService(deps: CasDeps) {
  const chunkCache = new Map<string, XetChunkRow[]>();
  async function chunksOf(xorb: string): Promise<XetChunkRow[]> {
    let rows = chunkCache.get(xorb);
    if (!rows) {
      rows = await deps.xet.chunks(xorb);
      if (chunkCache.size > 1024) chunkCache.clear();
      chunkCache.set(xorb, rows);
    }
    return rows;
  }

  /** The terms of `file` cut to the byte range `[from, to]` (inclusive), at chunk granularity. */
  async function segments(
    file: XetFileRow,
    from: number,
    to: number,
  ): Promise<{ segments: Segment[]; offset: number }> {
    const out: Segment[] = [];
    let position = 0;
    let offset = 0;
    for (const term of file.terms) {
      const rows = (await chunksOf(term.xorb)).slice(term.start, term.end);
      let first = -1;
      let last = -1;
      for (const [i, row] of rows.entries()) {
        const chunkStart = position;
        position += row.unpackedSize;
        if (position <= from || chunkStart > to) continue;
        if (first < 0) {
          first = i;
          if (out.length === 0) offset = from - chunkStart;
        }
        last = i;
      }
      if (first >= 0)
        out.push({ xorb: term.xorb, chunks: rows, start: term.start + first, end: term.start + last + 1 });
      if (position > to) break;
    }
    return { segments: out, offset };
  }

  /**
   * Where each shard file's sha256 came from (checkedSha256), for /metrics: `known` (an earlier shard's file
   * of the same hash), `upload` (the verification worker's pass along the uploader's chain of xorbs), or
   * `readBack` (the whole file read, decoded and hashed again: the cost the chains exist to avoid).
   */
  const fileSha256Sources = { known: 0, upload: 0, readBack: 0 };

  const service = {
    /** The file sha256 sources counted since the hub started (fileSha256Sources above). */
    fileSha256Sources: () => ({ ...fileSha256Sources }),

    /**
     * Streams a xorb into the blob store while verifying it chunk by chunk (memory stays at one chunk): a
     * xorb that is malformed or does not hash to `hashHex` makes the blob store drop it, so nothing is kept.
     * False when it was already stored (the body is then not read). `uploader` (a token's session) lets the
     * xorbs it sends one after another give its files' sha256 (file-sha256-chains.ts).
     */
    async uploadXorb(
      hashHex: string,
      body: AsyncIterable<Uint8Array>,
      declaredSize?: number,
      uploader?: string,
    ): Promise<boolean> {
      // Stored already: nothing to do, unless collection marked it (then it is kept again) or claimed it.
      const state = await deps.gc.xorbState(hashHex);
      if (state === "kept" || (state === "marked" && (await deps.gc.keepXorb(hashHex)))) return false;
      if (state !== undefined) throw new CasBusyError(hashHex);
      // Decoding and hashing the chunks happen on a worker thread (xorb-verify-pool.ts), beside the writes.
      const verification = offThreadXorbVerification(uploader);
      let verified: VerifiedChunk[] = [];
      const checked = async function* () {
        for await (const piece of body) {
          const behind = verification.push(piece);
          if (behind) await behind;
          yield piece;
        }
        // Throwing before the source ends makes the blob store discard what it wrote.
        verified = await verification.finish(hexToHash(hashHex));
      };
      let stored: Awaited<ReturnType<BlobStore["putKeyed"]>>;
      try {
        // Stored under its Xet hash, which the verification proves, not under a sha256 of its bytes: no
        // second hash of every byte (docs/decisions/xet-xorb-keys.md).
        stored = await deps.blobs.putKeyed(
          hashHex,
          checked(),
          declaredSize === undefined ? {} : { size: declaredSize },
        );
      } catch (error) {
        verification.abandon();
        if (error instanceof MalformedXorbError || error instanceof XorbHashMismatchError) {
          throw new CasRejectedError(error.message);
        }
        if (error instanceof BlobMismatchError) throw new CasRejectedError(error.message);
        throw error;
      }
      return deps.xet.addXorb(
        { hash: hashHex, blobSha256: stored.sha256, size: stored.size, chunkCount: verified.length },
        verified.map((c) => ({
          index: c.index,
          hash: hashToHex(c.hash),
          byteStart: c.start,
          byteEnd: c.end,
          unpackedSize: c.uncompressedSize,
        })),
      );
    },

    /**
     * Parses a shard, checks every file against the stored xorbs (ranges, sizes, verification hashes and
     * the file hash recomputed from the chunk hashes) and every listed xorb exists, hashes each new file's
     * reconstructed bytes for its sha256 (a shard's sha256 is a claim: a commit names content by it, and a
     * false one would make a path serve other bytes than its commit recorded), then registers the files for
     * `repoKey` (none for a storage bucket's upload: the bucket records its own). Nothing is registered unless
     * everything checks out. Answers the registered files' hashes.
     */
    async uploadShard(
      body: Uint8Array,
      repoKey: number | undefined,
      quotas?: Pick<XetQuotaCheck, "assertShardRoom" | "shardRegistered">,
      uploader?: string,
    ): Promise<string[]> {
      // A shard ends the uploader's chains: its next xorb starts another file (file-sha256-chains.ts).
      try {
        return await registerShard(body, repoKey, quotas);
      } finally {
        uploadsEnded(uploader);
      }
    },

    /**
     * A shard listing the xorb that holds `chunkHex` and the xorbs files using it also use (so one query
     * dedupes a whole file's worth), chunk hashes keyed so that only holders of the data can match them.
     */
    async dedupShard(chunkHex: string): Promise<Uint8Array | undefined> {
      const home = await deps.xet.xorbOfChunk(chunkHex);
      // A claimed xorb is about to go: a client deduplicating against it could not register its file.
      if (!home || (await deps.gc.xorbState(home)) === "claimed") return undefined;
      const key = randomBytes(32);
      const keyed = await keyedBlake3(key);
      const xorbs = [];
      for (const xorb of await deps.xet.relatedXorbs(home, 64)) {
        const rows = await chunksOf(xorb);
        const chunks = rows.map((row) => ({
          hash: keyed(hexToHash(row.hash)),
          byteStart: row.byteStart,
          unpackedBytes: row.unpackedSize,
        }));
        const bytesInXorb = rows.reduce((n, r) => n + r.unpackedSize, 0);
        xorbs.push({
          xorbHash: hexToHash(xorb),
          bytesInXorb,
          bytesOnDisk: (await deps.xet.xorb(xorb))?.size ?? 0,
          chunks,
        });
      }
      return serializeShard(
        { files: [], xorbs },
        { hmacKey: key, keyExpiry: BigInt(Math.floor(Date.now() / 1000) + 7 * 24 * 3600) },
      );
    },

    /** The reconstruction of bytes `[from, to]` of a file (to clamped to its end). */
    async reconstruction(file: XetFileRow, from: number, to: number): Promise<Reconstruction> {
      const { segments: parts, offset } = await segments(file, from, Math.min(to, file.size - 1));
      const expiresAt = Math.floor(Date.now() / 1000) + FETCH_URL_SECONDS;
      const terms: ReconstructionTerm[] = [];
      const fetchInfo: Record<string, FetchInfo[]> = {};
      for (const part of parts) {
        const rows = (await chunksOf(part.xorb)).slice(part.start, part.end);
        terms.push({
          hash: part.xorb,
          unpacked_length: rows.reduce((n, r) => n + r.unpackedSize, 0),
          range: { start: part.start, end: part.end },
        });
        const list = fetchInfo[part.xorb] ?? [];
        fetchInfo[part.xorb] = list;
        if (list.some((f) => f.range.start <= part.start && f.range.end >= part.end)) continue;
        const urlRange = {
          start: (rows[0] as XetChunkRow).byteStart,
          end: (rows.at(-1) as XetChunkRow).byteEnd - 1,
        };
        list.push({
          range: { start: part.start, end: part.end },
          // Signed for these bytes only: a xorb may hold chunks of files the caller may not read.
          url: `${deps.casUrl}/v1/fetch/${part.xorb}?${deps.signer.fetchQuery(part.xorb, urlRange, expiresAt)}`,
          url_range: urlRange,
        });
      }
      return { offset_into_first_range: offset, terms, fetch_info: fetchInfo };
    },

    /** Bytes `[start, end]` of a stored xorb, as stored (what a presigned fetch URL serves). */
    async xorbRange(xorb: { blobSha256: string }, start: number, end: number): Promise<Readable> {
      return deps.blobs.get(xorb.blobSha256, { start, end });
    },

    /** Where a stored xorb's bytes lie on this machine's disk, when the blob store keeps them there. */
    xorbLocalPath(xorb: { blobSha256: string }): string | undefined {
      return deps.blobs.localPath?.(xorb.blobSha256);
    },

    /**
     * Stores chunks the hub decoded and hashed itself (a mirror's reconstruction of an upstream file) as one
     * new local xorb, and answers where each landed. Each chunk comes serialized as upstream stored it (header
     * and possibly compressed data: compression enters no hash, so nothing is compressed again), and since
     * the hub computed every hash from these very bytes they are not decoded a second time (uploadXorb's
     * check, for a client's bytes).
     */
    async storeChunks(
      chunks: ReadonlyArray<{ hash: string; size: number; serialized: Uint8Array }>,
    ): Promise<{ xorb: string; chunks: XetChunkRow[] }> {
      const hashing = await loadXetHashing();
      const xorbHex = hashToHex(
        hashing.xorbHash(chunks.map((c) => ({ hash: hexToHash(c.hash), size: c.size }))),
      );
      const state = await deps.gc.xorbState(xorbHex);
      if (state === undefined) {
        // The hub computed every chunk hash, hence the xorb hash, from these bytes: they go under it.
        const stored = await deps.blobs.putKeyed(
          xorbHex,
          (async function* () {
            for (const chunk of chunks) yield chunk.serialized;
          })(),
        );
        let at = 0;
        const rows = chunks.map((chunk, index) => {
          const row = {
            index,
            hash: chunk.hash,
            byteStart: at,
            byteEnd: at + chunk.serialized.length,
            unpackedSize: chunk.size,
          };
          at = row.byteEnd;
          return row;
        });
        await deps.xet.addXorb(
          { hash: xorbHex, blobSha256: stored.sha256, size: stored.size, chunkCount: rows.length },
          rows,
        );
      } else if (!(state === "kept" || (state === "marked" && (await deps.gc.keepXorb(xorbHex))))) {
        throw new CasBusyError(xorbHex);
      }
      chunkCache.delete(xorbHex);
      return { xorb: xorbHex, chunks: await chunksOf(xorbHex) };
    },

    /**
     * Where each of these chunks is stored locally (a xorb and its index there), in one query per 500
     * hashes; a chunk stored nowhere, or only in xorbs garbage collection is removing, is absent.
     */
    async locateChunks(
      chunkHexes: readonly string[],
    ): Promise<Map<string, { xorb: string; index: number; size: number }>> {
      const found = new Map<string, { xorb: string; index: number; size: number }>();
      if (chunkHexes.length === 0) return found;
      const claimed = new Map<string, boolean>();
      for (const copy of await deps.xet.chunkCopies(chunkHexes)) {
        if (found.has(copy.hash)) continue;
        let gone = claimed.get(copy.xorb);
        if (gone === undefined) {
          gone = (await deps.gc.xorbState(copy.xorb)) === "claimed";
          claimed.set(copy.xorb, gone);
        }
        if (!gone) found.set(copy.hash, { xorb: copy.xorb, index: copy.index, size: copy.size });
      }
      return found;
    },

    /**
     * Registers a file the hub reconstructed and hashed itself for a repository (a mirror's copy of an
     * upstream Xet file): its terms name local xorbs, its hash and sha256 were computed from its bytes.
     */
    async registerOwnFile(file: XetFileRow & { sha256: string }, repoKey: number): Promise<void> {
      await deps.gc.registerFiles([file], repoKey);
    },

    /** A registered Xet file, or undefined. */
    file: (hash: string) => deps.xet.file(hash),
    /** Whether a repository registered this Xet file (its shard was uploaded with the repository's token). */
    fileInRepo: (hash: string, repoKey: number) => deps.xet.fileInRepo(hash, repoKey),
    /** A stored xorb, or undefined. */
    xorb: (hash: string) => deps.xet.xorb(hash),

    /**
     * The Xet file holding an LFS file's content: the one this repository registered, or, when the blob store
     * does not hold the bytes (the content was claimed from another repository: content-claims.ts), any file.
     * Xet files carry the sha256 of their hashed bytes, so either is exactly what the commit recorded.
     */
    async fileOfContent(repoKey: number, sha256: string): Promise<XetFileRow | undefined> {
      const own = await deps.xet.fileOfShaInRepo(sha256, repoKey);
      if (own) return deps.xet.file(own);
      const any = await deps.xet.fileBySha256(sha256);
      return any && !(await deps.blobs.head(sha256)) ? any : undefined;
    },

    /** The sha256 of a file's reconstructed bytes. */
    async sha256Of(file: XetFileRow): Promise<string> {
      // A large file's sha256 is computed on the hashing worker while the next bytes are read and decoded.
      const hash = file.size >= OFF_THREAD_SHA256_BYTES ? offThreadHash() : inThreadHash();
      try {
        if (file.size > 0) {
          for await (const piece of service.read(file, 0, file.size - 1)) {
            const behind = hash.update(piece);
            if (behind) await behind;
          }
        }
        return await hash.digest();
      } catch (error) {
        hash.abandon();
        throw error;
      }
    },

    /** The bytes `[from, to]` of a file, decoded from its xorbs a few MiB at a time. */
    async *read(file: XetFileRow, from: number, to: number): AsyncGenerator<Uint8Array> {
      const { segments: parts, offset } = await segments(file, from, to);
      let skip = offset;
      let remaining = to - from + 1;
      for (const part of parts) {
        const stored = await deps.xet.xorb(part.xorb);
        if (!stored) throw new Error(`Xorb ${part.xorb} of file ${file.hash} is missing from the store.`);
        const rows = await chunksOf(part.xorb);
        let index = part.start;
        while (index < part.end && remaining > 0) {
          // A batch of chunks of at most ~4 MiB stored bytes keeps memory flat whatever the file size.
          let last = index;
          const batchStart = (rows[index] as XetChunkRow).byteStart;
          while (
            last + 1 < part.end &&
            (rows[last + 1] as XetChunkRow).byteEnd - batchStart <= 4 * 1024 * 1024
          )
            last++;
          const batchEnd = (rows[last] as XetChunkRow).byteEnd;
          const bytes = await deps.blobs.read(stored.blobSha256, { start: batchStart, end: batchEnd - 1 });
          for (const chunk of parseXorbChunks(bytes).chunks) {
            let data = decodeChunk(bytes, chunk);
            if (skip > 0) {
              const cut = Math.min(skip, data.length);
              data = data.subarray(cut);
              skip -= cut;
            }
            if (data.length > remaining) data = data.subarray(0, remaining);
            remaining -= data.length;
            if (data.length > 0) yield data;
          }
          index = last + 1;
        }
      }
    },
  };
  return service;

  /** uploadShard's work: the checks, then the registration (see there). */
  async function registerShard(
    body: Uint8Array,
    repoKey: number | undefined,
    quotas?: Pick<XetQuotaCheck, "assertShardRoom" | "shardRegistered">,
  ): Promise<string[]> {
    const hashing = await loadXetHashing();
    let shard: ReturnType<typeof parseShard>;
    try {
      shard = parseShard(body);
    } catch (error) {
      throw new CasRejectedError((error as Error).message);
    }
    for (const xorb of shard.xorbs) {
      const hex = hashToHex(xorb.xorbHash);
      if (!(await deps.xet.xorb(hex)))
        throw new CasRejectedError(`The shard lists xorb ${hex}, which was not uploaded.`);
    }
    const files = [];
    for (const file of shard.files) {
      const checked = await checkFile(file, hashing);
      files.push({ ...checked, sha256: await checkedSha256(checked) });
    }
    // The xorbs holding the files' bytes (a shard's xorb section may be empty: the terms name them).
    const xorbHashes = [
      ...new Set([
        ...shard.xorbs.map((xorb) => hashToHex(xorb.xorbHash)),
        ...files.flatMap((file) => file.terms.map((term) => term.xorb)),
      ]),
    ];
    // Refused before anything is registered: a quota exceeded leaves the shard unknown.
    if (repoKey !== undefined) await quotas?.assertShardRoom(repoKey, files, xorbHashes);
    try {
      await deps.gc.registerFiles(files, repoKey);
    } catch (error) {
      if (error instanceof XorbNotStoredError) throw new CasRejectedError(error.message);
      throw error;
    }
    if (repoKey !== undefined) await quotas?.shardRegistered(repoKey, files, xorbHashes);
    return files.map((file) => file.hash);
  }

  /**
   * The sha256 of a file's bytes: the one already checked for this file hash (a file hash fixes the bytes),
   * the one the upload's verification computed as its xorbs arrived in order (file-sha256-chains.ts), or
   * hashed now from its reconstruction; a shard declaring another one is refused.
   */
  async function checkedSha256(file: XetFileRow): Promise<string> {
    const claimed = file.sha256;
    const counts = new Map<string, number>();
    for (const term of file.terms) counts.set(term.xorb, (await chunksOf(term.xorb)).length);
    let actual = (await deps.xet.file(file.hash))?.sha256;
    if (actual !== undefined) fileSha256Sources.known++;
    else {
      actual = fileSha256FromUploads(file.terms, (xorb) => counts.get(xorb) ?? -1);
      if (actual !== undefined) fileSha256Sources.upload++;
      else {
        actual = await service.sha256Of(file);
        fileSha256Sources.readBack++;
      }
    }
    if (claimed !== undefined && claimed !== actual) {
      throw new CasRejectedError(
        `File ${file.hash}: its bytes hash to sha256 ${actual}, not to the ${claimed} the shard declares.`,
      );
    }
    return actual;
  }

  async function checkFile(file: ShardFileInfo, hashing: XetHashing): Promise<XetFileRow> {
    const fileHex = hashToHex(file.fileHash);
    const leaves: Array<{ hash: Uint8Array; size: number }> = [];
    const terms: XetTermRow[] = [];
    for (const [i, term] of file.terms.entries()) {
      const xorb = hashToHex(term.xorbHash);
      if (!(await deps.xet.xorb(xorb))) {
        throw new CasRejectedError(`File ${fileHex} references xorb ${xorb}, which was not uploaded.`);
      }
      const rows = await chunksOf(xorb);
      if (term.chunkEnd > rows.length) {
        throw new CasRejectedError(`File ${fileHex} references chunks past the end of xorb ${xorb}.`);
      }
      const range = rows.slice(term.chunkStart, term.chunkEnd);
      const size = range.reduce((n, r) => n + r.unpackedSize, 0);
      if (size !== term.unpackedBytes) {
        throw new CasRejectedError(
          `File ${fileHex}: term ${i} claims ${term.unpackedBytes} bytes; its chunks hold ${size}.`,
        );
      }
      const hashes = range.map((r) => hexToHash(r.hash));
      // The verification hash proves the uploader knows the chunk hashes of the range it names (they come only
      // from the bytes): without it, a shard could claim ranges of xorbs the uploader never had.
      const verification = file.verification?.[i];
      if (!verification) {
        throw new CasRejectedError(
          `File ${fileHex}: term ${i} has no verification hash: a shard must carry one for every term.`,
        );
      }
      if (!hashesEqual(verification, hashing.rangeVerificationHash(hashes))) {
        throw new CasRejectedError(
          `File ${fileHex}: the verification hash of term ${i} does not match its chunks.`,
        );
      }
      for (const [j, row] of range.entries())
        leaves.push({ hash: hashes[j] as Uint8Array, size: row.unpackedSize });
      terms.push({ xorb, start: term.chunkStart, end: term.chunkEnd, size });
    }
    if (!hashesEqual(hashing.fileHash(leaves), file.fileHash)) {
      throw new CasRejectedError(`File ${fileHex}: its chunks do not hash to the file hash.`);
    }
    return {
      hash: fileHex,
      // The client stores the sha256 as it stores every hash (u64 words, little-endian): its string form is
      // the plain hex digest.
      sha256: file.sha256 ? hashToHex(file.sha256) : undefined,
      size: terms.reduce((n, t) => n + t.size, 0),
      terms,
    };
  }
}

export type CasService = ReturnType<typeof createCasService>;
