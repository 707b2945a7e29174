import type { CasService, Reconstruction } from "../lfs-xet/cas-service.js";
import { hashToHex, hexToHash, loadXetHashing, type SizedHash } from "../lfs-xet/hashes.js";
import type { XetFileRow, XetTermRow } from "../lfs-xet/xet-records.js";
import { decodeChunk, parseXorbChunks } from "../lfs-xet/xorb.js";
import type { DeclaredContent, PullSource } from "./content-pull.js";
import type { MirrorTable } from "./mirror-table.js";

/**
 * Stored chunk bytes gathered into one local xorb before it is stored. Memory per pull stays at this plus
 * two fetched ranges, the one decoded and the next (upstream's fetch ranges are at most a xorb: 64 MiB).
 */
const LOCAL_XORB_BYTES = 16 * 1024 * 1024;

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
) => Promise<{ json(): Promise<unknown>; bytes(): Promise<Uint8Array> }>;

export interface XetPullDeps {
  cas: Pick<CasService, "storeChunks" | "locateChunk" | "registerOwnFile" | "read">;
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
  const placements: Placement[] = [];
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

  /** Where a chunk of the file goes: where it already is locally, or into the next local xorb. */
  async function place(hash: string, size: number, serialized: Uint8Array): Promise<Placement> {
    const known = placed.get(hash) ?? (await deps.cas.locateChunk(hash));
    if (known) {
      placed.set(hash, known);
      return known;
    }
    const placement: Placement = { xorb: "", index: -1, size };
    placed.set(hash, placement);
    // A copy: the fetched range it lies in is dropped once read.
    pending.push({ serialized: Uint8Array.from(serialized), hash, placement });
    pendingBytes += serialized.length;
    if (pendingBytes >= LOCAL_XORB_BYTES) await flush();
    return placement;
  }

  /** The byte range of upstream's xorb `term.hash` that holds chunks `[start, end)` of it, as the plan lists it. */
  function fetchOf(plan: Reconstruction, term: Reconstruction["terms"][number]) {
    const { start, end } = term.range;
    const fetch = plan.fetch_info[term.hash]?.find((f) => f.range.start <= start && f.range.end >= end);
    if (!fetch) throw new XetPullError(`Upstream's reconstruction has no fetch for xorb ${term.hash}`);
    // The same URL may serve several ranges (a presigned URL of a whole xorb): the range is the key.
    return { ...fetch, key: `${fetch.url_range.start}-${fetch.url_range.end} ${fetch.url}` };
  }

  async function fetchRange(xorb: string, fetch: ReturnType<typeof fetchOf>, signal: AbortSignal) {
    const bytes = await (
      await deps.casGet(
        fetch.url,
        // A presigned URL: its query is the authorization (an object store refuses a second one).
        { Range: `bytes=${fetch.url_range.start}-${fetch.url_range.end}` },
        signal,
      )
    ).bytes();
    deps.fetched?.(bytes.length);
    if (bytes.length !== fetch.url_range.end - fetch.url_range.start + 1) {
      throw new XetPullError(
        `Upstream sent ${bytes.length} bytes of xorb ${xorb} for a range of ${fetch.url_range.end - fetch.url_range.start + 1}`,
      );
    }
    return bytes;
  }

  async function* reconstruct(plan: Reconstruction, signal: AbortSignal) {
    const hashing = await loadXetHashing();
    // Which terms an earlier pull already holds, known before any fetch so that the next range to fetch is.
    const locals: Array<Awaited<ReturnType<typeof localChunks>>> = [];
    for (const term of plan.terms)
      locals.push(await localChunks(term.hash, term.range.start, term.range.end));
    // The next range is fetched while this one is decoded, hashed and written: fetched one after the other,
    // the network and the CPU took turns (bench:mirror's cold Xet profile: the main thread idle most of the
    // time). Memory: two fetched ranges (at most a xorb each) per pull.
    const ahead = new AbortController();
    const stop = () => ahead.abort(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    const ranges = new Map<string, Promise<Uint8Array>>();
    const rangeOf = (index: number): Promise<Uint8Array> => {
      const term = plan.terms[index]!;
      const fetch = fetchOf(plan, term);
      let bytes = ranges.get(fetch.key);
      if (!bytes) {
        bytes = fetchRange(term.hash, fetch, ahead.signal);
        // Awaited when its term comes; a failure before then must not count as unhandled.
        bytes.catch(() => {});
        ranges.set(fetch.key, bytes);
      }
      return bytes;
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
          const fetch = fetchOf(plan, term);
          const bytes = await rangeOf(i);
          // Ranges before this one are done with; the next one not held here starts now.
          for (const key of ranges.keys())
            if (key === fetch.key) break;
            else ranges.delete(key);
          const next = plan.terms.findIndex(
            (t, j) => j > i && !locals[j] && fetchOf(plan, t).key !== fetch.key,
          );
          if (next >= 0) void rangeOf(next);
          const chunks = parseXorbChunks(bytes).chunks;
          for (let index = start; index < end; index++) {
            const chunk = chunks[index - fetch.range.start];
            if (!chunk) throw new XetPullError(`Upstream's xorb ${term.hash} range lacks chunk ${index}`);
            const data = decodeChunk(bytes, chunk);
            const hash = hashToHex(hashing.chunkHash(data));
            mappings.push({ upstreamXorb: term.hash, index, chunkHash: hash });
            leaves.push({ hash: hexToHash(hash), size: data.length });
            placements.push(await place(hash, data.length, bytes.subarray(chunk.start, chunk.end)));
            produced += data.length;
            yield data;
          }
        }
        if (produced !== term.unpacked_length) {
          throw new XetPullError(
            `Upstream's term of xorb ${term.hash} holds ${produced} bytes, not the ${term.unpacked_length} it declares`,
          );
        }
      }
      await flush();
    } finally {
      // A pull that ends early (cut, mismatch, a reader's abort) leaves no range being fetched.
      signal.removeEventListener("abort", stop);
      ahead.abort();
    }
  }

  /** The local chunks of upstream xorb chunks `[start, end)`, when an earlier pull fetched them all. */
  async function localChunks(upstreamXorb: string, start: number, end: number) {
    const known = await deps.table.xorbChunks(upstreamXorb, start, end);
    if (known.size !== end - start) return undefined;
    const out: Array<Placement & { hash: string }> = [];
    for (let index = start; index < end; index++) {
      const hash = known.get(index) as string;
      const at = await deps.cas.locateChunk(hash);
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
      await deps.cas.registerOwnFile(
        { hash: actual, sha256: content.sha256, size: content.size, terms: termsOf(placements) },
        target.repoKey,
      );
      await deps.table.addXorbChunks(mappings);
      await onKept();
    },
  };
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
