/**
 * The worker side of xorb-verify-pool.ts: verifies the xorbs its main thread streams to it (decoding and
 * BLAKE3-hashing each chunk: XorbStreamVerifier), several streams at once, one verifier per stream id. Each
 * batch is acknowledged by handing its buffer back (the main thread reuses it); the end of a stream answers
 * its verified chunks, or the error that refused it (reported as soon as it happens: the upload stops then).
 */
import { parentPort } from "node:worker_threads";
import type { XetHash } from "./hashes.js";
import { loadXetHashing } from "./hashes.js";
import { XorbStreamVerifier } from "./xorb-stream.js";

/** What the main thread sends: bytes of a stream, its end (with the expected xorb hash), or its abandon. */
export type VerifyRequest =
  | { id: number; kind: "bytes"; batch: ArrayBuffer; length: number }
  | { id: number; kind: "finish"; expected: XetHash }
  | { id: number; kind: "abandon" };

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
  | { id: number; kind: "verified"; chunks: WireChunk[] }
  | { id: number; kind: "failed"; name: string; message: string };

const port = parentPort;
if (!port)
  throw new Error("xorb-verify-worker.ts runs as a worker thread only (xorb-verify-pool.ts starts it).");

const hashing = await loadXetHashing();
const verifiers = new Map<number, XorbStreamVerifier>();
/** Streams refused already: their later batches are only acknowledged. */
const refused = new Set<number>();

function fail(id: number, error: unknown): void {
  verifiers.delete(id);
  refused.add(id);
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  port!.postMessage({ id, kind: "failed", name, message } satisfies VerifyReply);
}

port.on("message", (request: VerifyRequest) => {
  const { id } = request;
  if (request.kind === "abandon") {
    verifiers.delete(id);
    refused.delete(id);
    return;
  }
  if (request.kind === "bytes") {
    if (!refused.has(id)) {
      const verifier = verifiers.get(id) ?? new XorbStreamVerifier(hashing, true);
      verifiers.set(id, verifier);
      try {
        verifier.push(new Uint8Array(request.batch, 0, request.length));
      } catch (error) {
        fail(id, error);
      }
    }
    const reply: VerifyReply = { id, kind: "acked", length: request.length, batch: request.batch };
    port!.postMessage(reply, [request.batch]);
    return;
  }
  if (refused.delete(id)) return;
  const verifier = verifiers.get(id) ?? new XorbStreamVerifier(hashing);
  verifiers.delete(id);
  try {
    const chunks = verifier.finish(request.expected).map(
      (chunk): WireChunk => ({
        index: chunk.index,
        start: chunk.start,
        end: chunk.end,
        compression: chunk.compression,
        uncompressedSize: chunk.uncompressedSize,
        hash: chunk.hash,
      }),
    );
    port!.postMessage({ id, kind: "verified", chunks } satisfies VerifyReply);
  } catch (error) {
    fail(id, error);
    refused.delete(id);
  }
});
