import type { CasService, Reconstruction } from "../lfs-xet/cas-service.js";
import { hashToHex, hexToHash, loadXetHashing, type SizedHash } from "../lfs-xet/hashes.js";
import type { XetFileRow, XetTermRow } from "../lfs-xet/xet-records.js";
import { CHUNK_HEADER_BYTES, chunkLength, decodeChunk, readChunkHeader } from "../lfs-xet/xorb.js";
import type { DeclaredContent, PullSource } from "./content-pull.js";
import type { MirrorTable } from "./mirror-table.js";

/**
 * Stored chunk bytes gathered into one local xorb before it is stored. Memory per pull stays at about this:
 * upstream's ranges are read as they stream in, never held whole.
 */
const LOCAL_XORB_BYTES = 16 * 1024 * 1024;

/**
 * New chunks whose local place is looked up together (one query): where a chunk already is is asked per
 * batch of this many bytes, not per chunk (one query per 64 KiB chunk was a visible share of a cold pull).
 */
const LOCATE_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Chunks that span two socket reads are joined into slabs of this size, one allocation per slab instead of
 * one per chunk: upstream's ~64 KiB chunks rarely fall within one 64 KiB read, and an ArrayBuffer of its own
 * per chunk was the largest share of a cold Xet pull's garbage collection (bench:mirror profile).
 */
const JOIN_SLAB_BYTES = 4 * 1024 * 1024;

/** What upstream's CAS answered that the mirror cannot use (malformed plan, chunk range, or hash). */
export class XetPullError extends Error {
  constructor(message: string) {
    super(`${message}: nothing was kept; the next request tries again.`);
    this.name = "XetPullError";
  }
}

/** One GET to upstream's CAS (absolute URL): the answer's body, or a typed error for any other status. */
export type CasGet = (
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
) => Promise<{ json(): Promise<unknown>; body(): AsyncIterable<Uint8Array> }>;

export interface XetPullDeps {
  cas: Pick<CasService, "storeChunks" | "locateChunks" | "registerOwnFile" | "read">;
  table: Pick<MirrorTable, "xorbChunks" | "addXorbChunks">;
  /** A read token for the file's repository and commit (upstream's `xet-read-token` route). */
  readToken(signal: AbortSignal): Promise<{ accessToken: string; casUrl: string }>;
  casGet: CasGet;
  /** Told the size of each byte range fetched from upstream's xorbs (metrics; tests count them). */
  fetched?: (bytes: number) => void;
}

/** An upstream Xet file to pull, and the local repository that will hold it. */
export interface XetPullTarget extends DeclaredContent {
  xetHash: string;
  repoKey: number;
}

/** Where one chunk of the file lives locally: filled in when its xorb is stored. */
interface Placement {
  xorb: string;
  index: number;
  size: number;
}

/**
 * The pull of a file upstream stores in Xet, by reconstruction: the plan from upstream's CAS, then only the
 * terms whose upstream (xorb, chunk) this hub has not fetched before (mirror_xorb_chunks), decoded and
 * hashed here; known chunks are read from the local Xet store. New chunks become local xorbs as they come
 * (memory stays at one local xorb), and the reconstructed bytes go to the readers through the content
 * puller (which checks size and sha256). Once verified, `keep` checks the Xet file hash recomputed from the
 * chunks against upstream's, registers the local Xet file for the repository, and records the chunk
 * mapping: the chunks are the one copy (nothing goes to the blob store). Local xorbs of a pull that fails
 * later stay unreferenced until Xet garbage collection takes them; no file names them.
 */
export function xetPullSource(
  deps: XetPullDeps,
  target: XetPullTarget,
  onKept: () => Promise<void>,
): PullSource {
  const leaves: SizedHash[] = [];
  /** Where each chunk of the file is, in file order: a new chunk's slot is filled when its batch is placed. */
  const placements: Array<Placement | undefined> = [];
  /** New chunks waiting for their batch's lookup (placeBatch), each with its slot in `placements`. */
  let unplaced: Array<{ hash: string; size: number; serialized: Uint8Array; slot: number }> = [];
  let unplacedBytes = 0;
  const mappings: Array<{ upstreamXorb: string; index: number; chunkHash: string }> = [];
  let pending: Array<{ serialized: Uint8Array; hash: string; placement: Placement }> = [];
  let pendingBytes = 0;
  /** Chunks of this file already placed or pending (a file may repeat a chunk). */
  const placed = new Map<string, Placement>();

  async function flush(): Promise<void> {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    const stored = await deps.cas.storeChunks(
      batch.map(({ serialized, hash, placement }) => ({ serialized, hash, size: placement.size })),
    );
    for (const [i, entry] of batch.entries()) {
      const row = stored.chunks[i];
      if (!row || row.hash !== entry.hash) throw new Error(`Local xorb ${stored.xorb} lost chunk ${i}.`);
      entry.placement.xorb = stored.xorb;
      entry.placement.index = row.index;
    }
  }

  /**
   * Where a chunk of the file goes: where this file placed it before, where it already is locally
   * (`stored`, looked up by the batch), or into the next local xorb.
   */
  async function place(
    hash: string,
    size: number,
    serialized: Uint8Array,
    stored: Placement | undefined,
  ): Promise<Placement> {
    const known = placed.get(hash) ?? stored;
    if (known) {
      placed.set(hash, known);
      return known;
    }
    const placement: Placement = { xorb: "", index: -1, size };
    placed.set(hash, placement);
    pending.push({ serialized, hash, placement });
    pendingBytes += serialized.length;
    if (pendingBytes >= LOCAL_XORB_BYTES) await flush();
    return placement;
  }

  /** Places the chunks waiting in `unplaced`, in file order, after one lookup of those not placed yet. */
  async function placeBatch(): Promise<void> {
    if (unplaced.length === 0) return;
    const batch = unplaced;
    unplaced = [];
    unplacedBytes = 0;
    const stored = await deps.cas.locateChunks(batch.filter((c) => !placed.has(c.hash)).map((c) => c.hash));
    for (const chunk of batch) {
      placements[chunk.slot] = await place(chunk.hash, chunk.size, chunk.serialized, stored.get(chunk.hash));
    }
  }

  /** The byte range of upstream's xorb `term.hash` that holds chunks `[start, end)` of it, as the plan lists it. */
  function fetchOf(plan: Reconstruction, term: Reconstruction["terms"][number]) {
    const { start, end } = term.range;
    const fetch = plan.fetch_info[term.hash]?.find((f) => f.range.start <= start && f.range.end >= end);
    if (!fetch) throw new XetPullError(`Upstream's reconstruction has no fetch for xorb ${term.hash}`);
    // The same URL may serve several ranges (a presigned URL of a whole xorb): the range is the key.
    return { ...fetch, key: `${fetch.url_range.start}-${fetch.url_range.end} ${fetch.url}` };
  }

  /** The chunks of a fetch range, from its first, as its body streams in (chunksOfRange). */
  async function openRange(xorb: string, fetch: ReturnType<typeof fetchOf>, signal: AbortSignal) {
    const answer = await deps.casGet(
      fetch.url,
      // A presigned URL: its query is the authorization (an object store refuses a second one).
      { Range: `bytes=${fetch.url_range.start}-${fetch.url_range.end}` },
      signal,
    );
    const length = fetch.url_range.end - fetch.url_range.start + 1;
    return chunksOfRange(answer.body(), xorb, fetch.range.start, length, (bytes) => deps.fetched?.(bytes));
  }

  async function* reconstruct(plan: Reconstruction, signal: AbortSignal) {
    const hashing = await loadXetHashing();
    // Which terms an earlier pull already holds, known before any fetch so that the next range to fetch is.
    const locals: Array<Awaited<ReturnType<typeof localChunks>>> = [];
    for (const term of plan.terms)
      locals.push(await localChunks(term.hash, term.range.start, term.range.end));
    // Each fetched range is read as it streams in, and the next one is asked for when the current one starts,
    // so that its first bytes wait in the socket meanwhile. Whole ranges (up to 64 MiB, `arrayBuffer()`)
    // fetched ahead cost a concatenation and most of the mirror's garbage collection in a cold pull
    // (bench/results/2026-11-29-mirror-2.md). A term that reads further on in the range of the term before
    // it goes on with that range's stream; any other term opens the next stream.
    const streamOf: Array<number | undefined> = [];
    const firstTermOf: number[] = [];
    let last: { key: string; end: number } | undefined;
    for (const [i, term] of plan.terms.entries()) {
      if (locals[i]) {
        streamOf.push(undefined);
        continue;
      }
      const key = fetchOf(plan, term).key;
      if (!last || last.key !== key || term.range.start < last.end) firstTermOf.push(i);
      streamOf.push(firstTermOf.length - 1);
      last = { key, end: term.range.end };
    }
    const ahead = new AbortController();
    const stop = () => ahead.abort(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    const opened = new Map<number, Promise<AsyncIterator<FetchedChunk>>>();
    const streamNumber = (n: number): Promise<AsyncIterator<FetchedChunk>> => {
      let stream = opened.get(n);
      if (!stream) {
        const term = plan.terms[firstTermOf[n]!]!;
        stream = openRange(term.hash, fetchOf(plan, term), ahead.signal).then((chunks) =>
          chunks[Symbol.asyncIterator](),
        );
        // Awaited when its term comes; a failure before then must not count as unhandled.
        stream.catch(() => {});
        opened.set(n, stream);
      }
      return stream;
    };
    try {
      for (const [i, term] of plan.terms.entries()) {
        const { start, end } = term.range;
        let produced = 0;
        const local = locals[i];
        if (local) {
          // Every chunk of this term came from an earlier pull: read them here, fetch nothing.
          for (const run of runsOf(local)) {
            const size = run.reduce((n, c) => n + c.size, 0);
            const file: XetFileRow = {
              hash: target.xetHash,
              sha256: undefined,
              size,
              terms: [{ xorb: run[0]!.xorb, start: run[0]!.index, end: run.at(-1)!.index + 1, size }],
            };
            for await (const piece of deps.cas.read(file, 0, size - 1)) {
              produced += piece.length;
              yield piece;
            }
          }
          for (const chunk of local) {
            leaves.push({ hash: hexToHash(chunk.hash), size: chunk.size });
            placements.push(chunk);
          }
        } else {
          const n = streamOf[i]!;
          if (firstTermOf[n] === i) {
            // The streams before this one are done with; the next one is asked for now.
            for (const [earlier, stream] of opened)
              if (earlier < n) {
                opened.delete(earlier);
                void stream.then((chunks) => chunks.return?.()).catch(() => {});
              }
            if (n + 1 < firstTermOf.length) void streamNumber(n + 1);
          }
          const chunks = await streamNumber(n);
          for (let index = start; index < end; ) {
            const next = await chunks.next();
            if (next.done) throw new XetPullError(`Upstream's xorb ${term.hash} range lacks chunk ${index}`);
            const chunk = next.value;
            // The range may start before this term.
            if (chunk.index < start) continue;
            const raw = hashing.chunkHash(chunk.data);
            const hash = hashToHex(raw);
            mappings.push({ upstreamXorb: term.hash, index, chunkHash: hash });
            leaves.push({ hash: raw, size: chunk.data.length });
            // Its own bytes (or a view of one socket read: chunksOfRange), so no copy is needed to keep it.
            unplaced.push({
              hash,
              size: chunk.data.length,
              serialized: chunk.serialized,
              slot: placements.length,
            });
            placements.push(undefined);
            unplacedBytes += chunk.serialized.length;
            if (unplacedBytes >= LOCATE_BATCH_BYTES) await placeBatch();
            produced += chunk.data.length;
            index++;
            yield chunk.data;
          }
        }
        if (produced !== term.unpacked_length) {
          throw new XetPullError(
            `Upstream's term of xorb ${term.hash} holds ${produced} bytes, not the ${term.unpacked_length} it declares`,
          );
        }
      }
      await placeBatch();
      await flush();
    } finally {
      // A pull that ends early (cut, mismatch, a reader's abort) leaves no range being fetched.
      signal.removeEventListener("abort", stop);
      ahead.abort();
      for (const stream of opened.values()) void stream.then((chunks) => chunks.return?.()).catch(() => {});
    }
  }

  /** The local chunks of upstream xorb chunks `[start, end)`, when an earlier pull fetched them all. */
  async function localChunks(upstreamXorb: string, start: number, end: number) {
    const known = await deps.table.xorbChunks(upstreamXorb, start, end);
    if (known.size !== end - start) return undefined;
    const located = await deps.cas.locateChunks([...known.values()]);
    const out: Array<Placement & { hash: string }> = [];
    for (let index = start; index < end; index++) {
      const hash = known.get(index) as string;
      const at = located.get(hash);
      // Collected since (evicted or garbage-collected): fetch the term again.
      if (!at) return undefined;
      out.push({ ...at, hash });
    }
    return out;
  }

  return {
    async start(signal) {
      const { accessToken, casUrl } = await deps.readToken(signal);
      const plan = (await (
        await deps.casGet(
          `${casUrl.replace(/\/+$/, "")}/v1/reconstructions/${target.xetHash}`,
          { Authorization: `Bearer ${accessToken}` },
          signal,
        )
      ).json()) as Reconstruction;
      if (!Array.isArray(plan?.terms) || typeof plan.fetch_info !== "object" || plan.fetch_info === null) {
        throw new XetPullError(`Upstream's reconstruction of ${target.xetHash} is malformed`);
      }
      if (plan.offset_into_first_range !== 0) {
        throw new XetPullError(
          `Upstream's reconstruction of the whole file ${target.xetHash} starts at an offset`,
        );
      }
      return reconstruct(plan, signal);
    },

    async keep(_tmpPath, content) {
      const hashing = await loadXetHashing();
      const actual = hashToHex(hashing.fileHash(leaves));
      if (actual !== target.xetHash) {
        throw new XetPullError(
          `The chunks of sha256:${content.sha256} hash to Xet file ${actual}, not upstream's ${target.xetHash}`,
        );
      }
      const everyPlaced = placements.filter((p): p is Placement => p !== undefined);
      if (everyPlaced.length !== placements.length) {
        throw new XetPullError(`The pull of ${target.xetHash} ended with chunks not yet stored locally`);
      }
      await deps.cas.registerOwnFile(
        { hash: actual, sha256: content.sha256, size: content.size, terms: termsOf(everyPlaced) },
        target.repoKey,
      );
      await deps.table.addXorbChunks(mappings);
      await onKept();
    },
  };
}

/** One chunk of an upstream xorb range: its bytes as upstream stored them (header and data), decoded. */
export interface FetchedChunk {
  index: number;
  serialized: Uint8Array;
  data: Uint8Array;
}

/**
 * The chunks of an upstream xorb range (chunk `first` on) as its body streams in. A chunk lying within one
 * read of the socket is a view of it, one spanning reads is copied once into a slab shared with the next
 * ones (JOIN_SLAB_BYTES): a range is never held whole. Tells `counted` the bytes received once the body ends or is dropped.
 */
export async function* chunksOfRange(
  body: AsyncIterable<Uint8Array>,
  xorb: string,
  first: number,
  length: number,
  counted: (bytes: number) => void,
): AsyncGenerator<FetchedChunk> {
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let received = 0;
  let index = first;
  let slab: Uint8Array = new Uint8Array(0);
  let slabUsed = 0;
  /** Room for `bytes` joined bytes, in the current slab or a new one (the old one lives on in its views). */
  const joinRoom = (bytes: number): Uint8Array => {
    if (slab.byteLength - slabUsed < bytes) {
      slab = Buffer.allocUnsafeSlow(Math.max(JOIN_SLAB_BYTES, bytes));
      slabUsed = 0;
    }
    const room = slab.subarray(slabUsed, slabUsed + bytes);
    slabUsed += bytes;
    return room;
  };
  /** The first `bytes` bytes held, as one array (a view when they lie in the first piece). */
  const take = (bytes: number): Uint8Array => {
    const head = held[0]!;
    let out: Uint8Array;
    if (head.byteLength >= bytes) {
      out = head.subarray(0, bytes);
      if (head.byteLength === bytes) held.shift();
      else held[0] = head.subarray(bytes);
    } else {
      out = joinRoom(bytes);
      for (let at = 0; at < bytes; ) {
        const piece = held[0]!;
        const part = Math.min(piece.byteLength, bytes - at);
        out.set(piece.subarray(0, part), at);
        at += part;
        if (part === piece.byteLength) held.shift();
        else held[0] = piece.subarray(part);
      }
    }
    heldBytes -= bytes;
    return out;
  };
  try {
    for await (const piece of body) {
      received += piece.byteLength;
      held.push(piece);
      heldBytes += piece.byteLength;
      while (heldBytes >= CHUNK_HEADER_BYTES) {
        // A header split between two reads is joined first (rare: reads are tens of KiB).
        if (held[0]!.byteLength < CHUNK_HEADER_BYTES) {
          held.unshift(take(CHUNK_HEADER_BYTES));
          heldBytes += CHUNK_HEADER_BYTES;
        }
        const header = readChunkHeader(held[0]!, 0, index);
        // Upstream's info footer: no chunk after it.
        if (header === "footer") return;
        const bytes = header === "incomplete" ? chunkLength(held[0]!, 0) : header.end;
        if (heldBytes < bytes) break;
        const serialized = take(bytes);
        const chunk = readChunkHeader(serialized, 0, index);
        if (typeof chunk === "string")
          throw new XetPullError(`Upstream's xorb ${xorb} chunk ${index} is malformed`);
        yield { index, serialized, data: decodeChunk(serialized, chunk) };
        index++;
      }
    }
    if (heldBytes > 0 || received !== length) {
      throw new XetPullError(`Upstream sent ${received} bytes of xorb ${xorb} for a range of ${length}`);
    }
  } finally {
    counted(received);
  }
}

/** Consecutive chunks of one local xorb, as runs (one read or one term each). */
function runsOf<T extends Placement>(chunks: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const chunk of chunks) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && last.xorb === chunk.xorb && last.index + 1 === chunk.index) run.push(chunk);
    else runs.push([chunk]);
  }
  return runs;
}

/** The terms of the local file: each run of consecutive chunks of one xorb. */
function termsOf(placements: readonly Placement[]): XetTermRow[] {
  return runsOf(placements).map((run) => ({
    xorb: run[0]!.xorb,
    start: run[0]!.index,
    end: run.at(-1)!.index + 1,
    size: run.reduce((n, c) => n + c.size, 0),
  }));
}
