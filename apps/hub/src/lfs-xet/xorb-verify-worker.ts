/**
 * The worker side of xorb-verify-pool.ts: verifies the xorbs its main thread streams to it (decoding and
 * BLAKE3-hashing each chunk: XorbStreamVerifier), several streams at once, one verifier per stream id. Each
 * batch is acknowledged by handing its buffer back (the main thread reuses it); the end of a stream answers
 * its verified chunks, or the error that refused it (reported as soon as it happens: the upload stops then).
 *
 * In the same pass, each stream's decoded chunks go into the sha256 of its chain (xorbs verified one after
 * another, file-sha256-chains.ts): the digest after each chunk is answered with the chunks, so that a file
 * lying along the chain has its sha256 without reading its bytes back.
 */
import { createHash, type Hash } from "node:crypto";
import { parentPort } from "node:worker_threads";
import type { XetHash } from "./hashes.js";
import { loadXetHashing } from "./hashes.js";
import { XorbStreamVerifier } from "./xorb-stream.js";

/** What the main thread sends: bytes of a stream, its end (with the expected xorb hash), or its abandon. */
export type VerifyRequest =
  | { id: number; kind: "open"; chain: number }
  | { id: number; kind: "bytes"; batch: ArrayBuffer; length: number }
  | { id: number; kind: "finish"; expected: XetHash }
  | { id: number; kind: "abandon" }
  | { id: number; kind: "close"; chain: number };

/** A verified chunk as it crosses threads (its hash as raw bytes). */
export interface WireChunk {
  index: number;
  start: number;
  end: number;
  compression: number;
  uncompressedSize: number;
  hash: Uint8Array;
}

export type VerifyReply =
  | { id: number; kind: "acked"; length: number; batch: ArrayBuffer }
  | { id: number; kind: "verified"; chunks: WireChunk[]; sha256s: ArrayBuffer }
  | { id: number; kind: "failed"; name: string; message: string };

const port = parentPort;
if (!port)
  throw new Error("xorb-verify-worker.ts runs as a worker thread only (xorb-verify-pool.ts starts it).");

const hashing = await loadXetHashing();

/** One stream being verified: its verifier, its chain's sha256, and that sha256's digest after each chunk. */
interface Stream {
  verifier: XorbStreamVerifier;
  chain: number;
  digests: Buffer[];
}

const streams = new Map<number, Stream>();
/** The sha256 of each open chain's decoded bytes so far (a stream continues it; a refusal drops it). */
const chains = new Map<number, Hash>();
/** Streams refused already: their later batches are only acknowledged. */
const refused = new Set<number>();

function open(id: number, chain: number): Stream {
  const chainHash = chains.get(chain) ?? createHash("sha256");
  chains.set(chain, chainHash);
  const digests: Buffer[] = [];
  const verifier = new XorbStreamVerifier(hashing, true, (raw) => {
    chainHash.update(raw);
    digests.push(chainHash.copy().digest());
  });
  const stream = { verifier, chain, digests };
  streams.set(id, stream);
  return stream;
}

function forget(id: number): void {
  const stream = streams.get(id);
  streams.delete(id);
  // A chain whose stream did not end verified holds bytes of no stored xorb: it is of no use any more.
  if (stream) chains.delete(stream.chain);
}

function fail(id: number, error: unknown): void {
  forget(id);
  refused.add(id);
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  port!.postMessage({ id, kind: "failed", name, message } satisfies VerifyReply);
}

port.on("message", (request: VerifyRequest) => {
  const { id } = request;
  if (request.kind === "open") {
    open(id, request.chain);
    return;
  }
  if (request.kind === "close") {
    chains.delete(request.chain);
    return;
  }
  if (request.kind === "abandon") {
    forget(id);
    refused.delete(id);
    return;
  }
  if (request.kind === "bytes") {
    const stream = streams.get(id);
    if (stream && !refused.has(id)) {
      try {
        stream.verifier.push(new Uint8Array(request.batch, 0, request.length));
      } catch (error) {
        fail(id, error);
      }
    }
    const reply: VerifyReply = { id, kind: "acked", length: request.length, batch: request.batch };
    port!.postMessage(reply, [request.batch]);
    return;
  }
  if (refused.delete(id)) return;
  const stream = streams.get(id) ?? open(id, -1 - id);
  streams.delete(id);
  try {
    const chunks = stream.verifier.finish(request.expected).map(
      (chunk): WireChunk => ({
        index: chunk.index,
        start: chunk.start,
        end: chunk.end,
        compression: chunk.compression,
        uncompressedSize: chunk.uncompressedSize,
        hash: chunk.hash,
      }),
    );
    const sha256s = new Uint8Array(Buffer.concat(stream.digests)).buffer;
    port!.postMessage({ id, kind: "verified", chunks, sha256s } satisfies VerifyReply, [sha256s]);
  } catch (error) {
    streams.set(id, stream);
    fail(id, error);
    refused.delete(id);
  }
});
