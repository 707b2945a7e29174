import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { SharedRingFeed } from "./shared-ring-feed.js";

/**
 * SHA-256 of a stream computed on a worker thread, so that hashing a large upload runs beside the socket
 * reads and disk writes of the main thread instead of between them (it is most of the hub's own CPU time
 * in an LFS upload). Chunks are copied once into a ring shared with the worker (shared-ring-feed.ts); when
 * all of it waits to be hashed, update() returns a promise to await.
 */
export interface StreamHash {
  /** Adds a chunk; when it returns a promise, await it before adding more (the worker is behind). */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** The hex digest of everything added. */
  digest(): Promise<string>;
  /** Drops the hash without a digest (the upload failed); harmless after digest(). */
  abandon(): void;
}

/** The ring a stream's bytes cross to the worker in (shared-ring-feed.ts): four slots of 1 MiB. */
const SLOT_BYTES = 1 << 20;
const RING_BYTES = 4 * SLOT_BYTES;

/**
 * The worker: one hash per stream id over the stream's ring, and for a stream given a file descriptor, the
 * bytes written to it there too (before they are hashed). Acknowledges each slot once done with it (the main
 * thread fills it again), answers the digest at the end, or the stream's first write error (then forgets
 * it). It keeps no view into a ring past a message, and touches a stream's file no more once it answered.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { writeSync } = require("node:fs");
const streams = new Map();
parentPort.on("message", ({ id, ring, fd, slot, length, end }) => {
  if (ring) {
    streams.set(id, { ring, fd, hash: createHash("sha256") });
    return;
  }
  const stream = streams.get(id);
  if (!stream) return;
  if (length > 0) {
    const bytes = new Uint8Array(stream.ring, slot * ${SLOT_BYTES}, length);
    try {
      for (let written = 0; stream.fd !== undefined && written < length; )
        written += writeSync(stream.fd, bytes, written, length - written);
    } catch (error) {
      streams.delete(id);
      parentPort.postMessage({ id, error: { code: error.code, message: error.message } });
      return;
    }
    stream.hash.update(bytes);
  }
  if (end) {
    streams.delete(id);
    parentPort.postMessage({ id, digest: stream.hash.digest("hex") });
  } else parentPort.postMessage({ id, slot });
});
`;

/** Rings of ended streams, reused by the next ones (a hub hashes a few uploads at once at most). */
const spareRings: SharedArrayBuffer[] = [];

interface Pending {
  acked(slot: number): void;
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
  started.on(
    "message",
    (message: { id: number; slot?: number; digest?: string; error?: { code?: string; message: string } }) => {
      const pending = streams.get(message.id);
      if (!pending) return;
      if (message.digest !== undefined || message.error) streams.delete(message.id);
      if (message.digest !== undefined) pending.done(message.digest);
      else if (message.error) {
        const { code, message: text } = message.error;
        pending.failed(Object.assign(new Error(`Writing the upload failed: ${text}`), { code }));
      } else pending.acked(message.slot ?? 0);
    },
  );
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

/** Streams the worker is hashing now (an abandoned or finished one is forgotten once the worker answers it). */
export function openHashStreams(): number {
  return streams.size;
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

/** A stream hashed on the worker thread, which may also be writing it to a file (offThreadHash's `writeTo`). */
export interface OffThreadHash extends StreamHash {
  /**
   * Settles once the worker is done with the stream (digested, abandoned and ended, or failed): only then may
   * the caller close the file it writes to, whose descriptor could otherwise be reused under the worker.
   */
  readonly released: Promise<void>;
}

/**
 * Hashes on the shared worker thread (large uploads). With `writeTo` (an open file descriptor), the worker
 * also writes the bytes to that file, in order, before hashing them: the caller's chunks are then copied once
 * and dropped at once, and the event loop makes no write call of its own (digest() resolves once all is
 * written; a write error rejects update() or digest() with the error's errno code).
 */
export function offThreadHash(options: { writeTo?: number } = {}): OffThreadHash {
  const target = hashWorker();
  const id = nextId++;
  const ring = spareRings.pop() ?? new SharedArrayBuffer(RING_BYTES);
  let finish: { resolve(digest: string): void; reject(error: Error): void } | undefined;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const feed = new SharedRingFeed(ring, SLOT_BYTES, (slot, length, end) =>
    target.postMessage({ id, slot, length, end }),
  );
  target.postMessage({ id, ring, fd: options.writeTo });
  streams.set(id, {
    acked: (slot) => feed.acked(slot),
    done(digest) {
      // The worker has answered the stream's last message: the ring is no longer read.
      if (spareRings.length < 4) spareRings.push(ring);
      release();
      finish?.resolve(digest);
    },
    failed(reason) {
      release();
      feed.fail(reason);
      finish?.reject(reason);
    },
  });

  return {
    released,
    update: (chunk) => feed.push(chunk),
    digest() {
      if (feed.error) return Promise.reject(feed.error);
      return new Promise<string>((resolve, reject) => {
        finish = { resolve, reject };
        feed.end();
      });
    },
    abandon() {
      if (finish || feed.error || !streams.has(id)) return;
      // The worker forgets the stream once it ends; nobody waits for this digest.
      finish = { resolve: () => {}, reject: () => {} };
      feed.end();
    },
  };
}
