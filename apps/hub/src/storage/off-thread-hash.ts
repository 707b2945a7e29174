import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { WorkerByteFeed } from "./worker-byte-feed.js";

/**
 * SHA-256 of a stream computed on a worker thread, so that hashing a large upload runs beside the socket
 * reads and disk writes of the main thread instead of between them (it is most of the hub's own CPU time
 * in an LFS upload). Chunks are gathered into 1 MiB batches, each copied once and transferred to the worker;
 * at most MAX_IN_FLIGHT bytes wait there (update() then returns a promise to await).
 */
export interface StreamHash {
  /** Adds a chunk; when it returns a promise, await it before adding more (the worker is behind). */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** The hex digest of everything added. */
  digest(): Promise<string>;
  /** Drops the hash without a digest (the upload failed); harmless after digest(). */
  abandon(): void;
}

const BATCH_BYTES = 1 << 20;
const MAX_IN_FLIGHT = 4 << 20;

/**
 * The worker: one hash per stream id; acknowledges each batch by handing its buffer back (the main thread
 * reuses it: no garbage of transferred buffers piles up in the worker), answers the digest at the end.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const hashes = new Map();
parentPort.on("message", ({ id, batch, length, end }) => {
  let hash = hashes.get(id);
  if (!hash) hashes.set(id, (hash = createHash("sha256")));
  hash.update(new Uint8Array(batch, 0, length));
  if (end) {
    hashes.delete(id);
    parentPort.postMessage({ id, digest: hash.digest("hex") });
  } else parentPort.postMessage({ id, hashed: length, batch }, [batch]);
});
`;

/** Batch buffers back from the worker, reused (a few: MAX_IN_FLIGHT / BATCH_BYTES are in flight at most). */
const BUFFER_BYTES = 2 * BATCH_BYTES;
const spareBuffers: ArrayBuffer[] = [];

function batchBuffer(bytes: number): ArrayBuffer {
  if (bytes > BUFFER_BYTES) return new ArrayBuffer(bytes);
  return spareBuffers.pop() ?? new ArrayBuffer(BUFFER_BYTES);
}

interface Pending {
  acked(bytes: number): void;
  done(digest: string): void;
  failed(error: Error): void;
}

let worker: Worker | undefined;
const streams = new Map<number, Pending>();
let nextId = 0;

function hashWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  // The worker never keeps the process alive on its own; a stream being hashed keeps it busy anyway.
  started.unref();
  started.on("message", (message: { id: number; hashed?: number; digest?: string; batch?: ArrayBuffer }) => {
    if (message.batch?.byteLength === BUFFER_BYTES && spareBuffers.length < 8)
      spareBuffers.push(message.batch);
    const pending = streams.get(message.id);
    if (!pending) return;
    if (message.digest !== undefined) {
      streams.delete(message.id);
      pending.done(message.digest);
    } else pending.acked(message.hashed ?? 0);
  });
  const fail = (error: Error) => {
    worker = undefined;
    for (const pending of streams.values()) pending.failed(error);
    streams.clear();
  };
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`The hashing worker exited (${code}).`)));
  worker = started;
  return started;
}

/** Hashes on the calling thread (small content: a worker round trip costs more than the hash). */
export function inThreadHash(): StreamHash {
  const hash = createHash("sha256");
  return {
    update(chunk) {
      hash.update(chunk);
      return undefined;
    },
    digest: async () => hash.digest("hex"),
    abandon() {},
  };
}

/** Hashes on the shared worker thread (large uploads). */
export function offThreadHash(): StreamHash {
  const target = hashWorker();
  const id = nextId++;
  let finish: { resolve(digest: string): void; reject(error: Error): void } | undefined;
  const feed = new WorkerByteFeed({
    batchBytes: BATCH_BYTES,
    maxInFlight: MAX_IN_FLIGHT,
    buffer: batchBuffer,
    post: (batch, length, end) => target.postMessage({ id, batch, length, end }, [batch]),
  });
  streams.set(id, {
    acked: (bytes) => feed.acked(bytes),
    done: (digest) => finish?.resolve(digest),
    failed(reason) {
      feed.fail(reason);
      finish?.reject(reason);
    },
  });

  return {
    update: (chunk) => feed.push(chunk),
    digest() {
      if (feed.error) return Promise.reject(feed.error);
      return new Promise<string>((resolve, reject) => {
        finish = { resolve, reject };
        feed.send(true);
      });
    },
    abandon() {
      if (finish || feed.error || !streams.has(id)) return;
      // The worker forgets the stream once it ends; nobody waits for this digest.
      finish = { resolve: () => {}, reject: () => {} };
      feed.drop();
      feed.send(true);
    },
  };
}
