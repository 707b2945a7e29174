import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { WorkerByteFeed } from "../storage/worker-byte-feed.js";
import { type FileTerm, Sha256Chains } from "./file-sha256-chains.js";
import { hashToHex, type XetHash } from "./hashes.js";
import { MalformedXorbError, type VerifiedChunk, XorbHashMismatchError } from "./xorb.js";
import type { VerifyReply, VerifyRequest, WireChunk } from "./xorb-verify-worker.js";

/**
 * Xorb verification (decoding and BLAKE3-hashing every chunk of an uploaded xorb: XorbStreamVerifier) on a
 * pool of worker threads, so that an upload's hashing runs beside the socket reads and disk writes of the
 * event loop instead of between them, and other requests are answered meanwhile. Bytes are gathered into
 * 1 MiB batches, each copied once and transferred to the stream's worker; at most MAX_IN_FLIGHT bytes of a
 * stream wait there (push() then returns a promise to await), so memory stays flat whatever the upload.
 * The same pass hashes the decoded bytes into the sha256 of the stream's chain (file-sha256-chains.ts).
 */
export interface XorbVerification {
  /** Adds bytes; when it returns a promise, await it before adding more. Throws once the xorb is refused. */
  push(piece: Uint8Array): Promise<void> | undefined;
  /** The verified chunks: rejects (MalformedXorbError, XorbHashMismatchError) when the xorb is refused. */
  finish(expected: XetHash): Promise<VerifiedChunk[]>;
  /** Drops the verification (the upload failed); harmless after finish(). */
  abandon(): void;
}

const BATCH_BYTES = 1 << 20;
/** A batch is sent once it holds BATCH_BYTES, so it may hold a socket read more: its buffers are larger. */
const BUFFER_BYTES = 2 * BATCH_BYTES;
const MAX_IN_FLIGHT = 4 << 20;
/** One thread stays for the event loop; at most four verify, which outruns a disk on any machine measured. */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));

interface Stream {
  acked(bytes: number): void;
  verified(chunks: WireChunk[], sha256s: ArrayBuffer): void;
  failed(error: Error): void;
}

interface PoolWorker {
  worker: Worker;
  streams: Map<number, Stream>;
  spare: ArrayBuffer[];
}

const pool: (PoolWorker | undefined)[] = [];
let nextId = 0;
/**
 * How long a stream queued on its chain waits for the one before it (whose client may have stalled): past
 * that, it goes on beside it and the chain is given up, so its files are read back at the shard instead.
 */
const QUEUE_WAIT_MS = 60_000;

/** `previous`, or `gaveUp()` then done once `ms` passed first. */
function waitAtMost(previous: Promise<void>, ms: number, gaveUp: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      gaveUp();
      resolve();
    }, ms);
    timer.unref();
    void previous.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Per chain, the end of its last stream: a stream queued on the chain waits for it before sending bytes. */
const tails = new Map<number, Promise<void>>();
const chains = new Sha256Chains((chain, owner) =>
  (owner as PoolWorker).worker.postMessage({ id: -1, kind: "close", chain } satisfies VerifyRequest),
);

/**
 * The sha256 (hex) of a file made of `terms`, when this process verified its xorbs one after another just
 * now (file-sha256-chains.ts); undefined otherwise (the caller reads the file back).
 */
export function fileSha256FromUploads(
  terms: readonly FileTerm[],
  chunkCount: (xorb: string) => number,
): string | undefined {
  return chains.fileSha256(terms, chunkCount);
}

/** The error a worker reported, as the class the CAS maps to a refusal (others stay plain errors). */
function reported(name: string, message: string): Error {
  // The message is the worker's whole message, prefix included.
  if (name === "MalformedXorbError") return Object.assign(new MalformedXorbError(""), { message });
  if (name === "XorbHashMismatchError") return new XorbHashMismatchError();
  return new Error(`Xorb verification failed in its worker: ${message}`);
}

/**
 * How the worker module is loaded: the built hub runs `xorb-verify-worker.js` as it is; from the TypeScript
 * sources (tests, `tsx`), the worker registers tsx first, as its parent did.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
if (workerData.tsx) import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.module, workerData.module));
else import(workerData.module);
`;

function start(slot: number): PoolWorker {
  const fromSources = import.meta.url.endsWith(".ts");
  const module = new URL(`./xorb-verify-worker.${fromSources ? "ts" : "js"}`, import.meta.url).href;
  const tsx = fromSources ? import.meta.resolve("tsx/esm/api") : undefined;
  const worker = new Worker(BOOT, { eval: true, workerData: { module, tsx } });
  // Never keeps the process alive on its own; a stream being verified keeps it busy anyway.
  worker.unref();
  const entry: PoolWorker = { worker, streams: new Map(), spare: [] };
  worker.on("message", (reply: VerifyReply) => {
    const stream = entry.streams.get(reply.id);
    if (reply.kind === "acked") {
      if (reply.batch.byteLength === BUFFER_BYTES && entry.spare.length < 8) entry.spare.push(reply.batch);
      stream?.acked(reply.length);
    } else if (reply.kind === "verified") {
      entry.streams.delete(reply.id);
      stream?.verified(reply.chunks, reply.sha256s);
    } else {
      entry.streams.delete(reply.id);
      stream?.failed(reported(reply.name, reply.message));
    }
  });
  const fail = (error: Error) => {
    if (pool[slot] === entry) pool[slot] = undefined;
    chains.lost(entry);
    for (const stream of entry.streams.values()) stream.failed(error);
    entry.streams.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`A xorb verification worker exited (${code}).`)));
  return entry;
}

/** The pool's worker with the fewest streams (started on first use). */
function leastBusy(): PoolWorker {
  let best: PoolWorker | undefined;
  for (let slot = 0; slot < POOL_SIZE; slot++) {
    const entry = pool[slot] ?? start(slot);
    pool[slot] = entry;
    if (!best || entry.streams.size < best.streams.size) best = entry;
    if (entry.streams.size === 0) break;
  }
  return best!;
}

/** `uploader`'s upload is over (its shard came): its next xorb starts another file's chain. */
export function uploadsEnded(uploader = ""): void {
  chains.ended(uploader);
}

/** Verifies one xorb on the pool; `uploader` (a token's session) keeps its xorbs' chain its own. */
export function offThreadXorbVerification(uploader = "", queueWaitMs = QUEUE_WAIT_MS): XorbVerification {
  const chain = chains.begin(
    uploader,
    (owner) => pool.includes(owner as PoolWorker),
    () => leastBusy(),
  );
  const target = chain.owner as PoolWorker;
  // A stream queued on its chain sends nothing until the stream before it has ended (file-sha256-chains.ts).
  let before = chain.queued ? tails.get(chain.id) : undefined;
  if (before) before = waitAtMost(before, queueWaitMs, () => chains.failed(chain.id));
  let ended!: () => void;
  const mine = new Promise<void>((resolve) => {
    ended = resolve;
  });
  tails.set(chain.id, mine);
  const end = () => {
    if (tails.get(chain.id) === mine) tails.delete(chain.id);
    ended();
  };
  const id = nextId++;
  let done:
    | { resolve(reply: { chunks: WireChunk[]; sha256s: ArrayBuffer }): void; reject(error: Error): void }
    | undefined;
  const post = (request: VerifyRequest, transfer: ArrayBuffer[] = []) =>
    target.worker.postMessage(request, transfer);
  post({ id, kind: "open", chain: chain.id });
  const feed = new WorkerByteFeed({
    batchBytes: BATCH_BYTES,
    maxInFlight: MAX_IN_FLIGHT,
    buffer: (length) =>
      length <= BUFFER_BYTES
        ? (target.spare.pop() ?? new ArrayBuffer(BUFFER_BYTES))
        : new ArrayBuffer(length),
    post: (batch, length) => post({ id, kind: "bytes", batch, length }, [batch]),
  });
  target.streams.set(id, {
    acked: (bytes) => feed.acked(bytes),
    verified(chunks, sha256s) {
      done?.resolve({ chunks, sha256s });
      end();
    },
    failed(reason) {
      end();
      chains.failed(chain.id);
      feed.fail(reason);
      done?.reject(reason);
    },
  });

  return {
    push(piece) {
      if (feed.error) throw feed.error;
      if (piece.byteLength === 0) return undefined;
      if (!before) return feed.push(piece);
      return before.then(() => {
        before = undefined;
        return feed.push(piece);
      });
    },
    async finish(expected) {
      if (before) await before;
      if (feed.error) throw feed.error;
      if (feed.pendingBytes > 0) feed.send(false);
      const { chunks, sha256s } = await new Promise<{ chunks: WireChunk[]; sha256s: ArrayBuffer }>(
        (resolve, reject) => {
          done = { resolve, reject };
          post({ id, kind: "finish", expected });
        },
      );
      chains.verified(chain.id, hashToHex(expected), new Uint8Array(sha256s));
      return chunks.map((chunk) => ({ ...chunk, hash: new Uint8Array(chunk.hash) }));
    },
    abandon() {
      // After finish() the worker has forgotten the stream; before it (refused or not), it is told to.
      if (done) return;
      end();
      chains.failed(chain.id);
      target.streams.delete(id);
      feed.drop();
      post({ id, kind: "abandon" });
    },
  };
}
