import type { SizedHash, XetHash, XetHashing } from "./hashes.js";
import {
  CHUNK_HEADER_BYTES,
  chunkLength,
  decodeChunk,
  MAX_XORB_BYTES,
  MalformedXorbError,
  readChunkHeader,
  type VerifiedChunk,
  XorbHashMismatchError,
} from "./xorb.js";

/**
 * Verifies a xorb as its bytes arrive: each chunk is decoded and hashed as soon as it is complete, then
 * dropped, so memory stays at one chunk (≤ 128 KiB raw) whatever the xorb's size. `finish` checks that the
 * chunks hash to the expected xorb hash. Offsets in the returned chunks are offsets in the whole xorb.
 */
export class XorbStreamVerifier {
  /** Received bytes not yet parsed (the start of an incomplete chunk), kept as they came. */
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** Offset in the xorb of the first pending byte. */
  private pendingStart = 0;
  /** Pending bytes needed before parsing can make progress (a header, then its whole chunk). */
  private needed = CHUNK_HEADER_BYTES;
  private received = 0;
  private inFooter = false;
  private readonly chunks: VerifiedChunk[] = [];

  /**
   * `reusesPieces`: the caller reuses a piece's memory once push() returns (xorb-verify-worker.ts hands its
   * batches back), so the incomplete chunk at its end is copied rather than kept as it came. `onChunk` sees
   * each chunk's decoded bytes, in order, once it is hashed (valid only during the call).
   */
  constructor(
    private readonly hashing: XetHashing,
    private readonly reusesPieces = false,
    private readonly onChunk?: (raw: Uint8Array) => void,
  ) {}

  /** Bytes received so far. */
  get size(): number {
    return this.received;
  }

  push(piece: Uint8Array): void {
    this.received += piece.byteLength;
    if (this.received > MAX_XORB_BYTES) {
      throw new MalformedXorbError(`more than ${MAX_XORB_BYTES} bytes is above the limit`);
    }
    // After the client's info footer nothing is chunk data: keep counting, stop parsing.
    if (this.inFooter || piece.byteLength === 0) return;
    const view = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (this.pendingBytes > 0 && this.pendingBytes + view.byteLength > this.needed) {
      // The start of a chunk is pending: it is completed with only the bytes it lacks, and the rest of the
      // piece is parsed in place (joining the whole piece to it would copy every byte once more).
      const lacking = this.needed - this.pendingBytes;
      this.received -= piece.byteLength;
      this.push(view.subarray(0, lacking));
      this.push(view.subarray(lacking));
      return;
    }
    this.pieces.push(
      this.reusesPieces && this.pendingBytes + view.byteLength < this.needed ? Buffer.from(view) : view,
    );
    this.pendingBytes += piece.byteLength;
    if (this.pendingBytes < this.needed) return;
    const pending = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces);
    let at = 0;
    for (;;) {
      const chunk = readChunkHeader(pending, at, this.chunks.length);
      if (chunk === "footer") {
        this.inFooter = true;
        break;
      }
      if (chunk === "incomplete") {
        const left = pending.byteLength - at;
        this.needed = left < CHUNK_HEADER_BYTES ? CHUNK_HEADER_BYTES : chunkLength(pending, at);
        break;
      }
      const raw = decodeChunk(pending, chunk);
      this.chunks.push({
        ...chunk,
        start: this.pendingStart + chunk.start,
        end: this.pendingStart + chunk.end,
        hash: this.hashing.chunkHash(raw),
      });
      this.onChunk?.(raw);
      at = chunk.end;
    }
    const rest = this.inFooter ? undefined : pending.subarray(at);
    this.pieces = rest?.byteLength ? [this.reusesPieces ? Buffer.from(rest) : rest] : [];
    this.pendingBytes = rest?.byteLength ?? 0;
    this.pendingStart += at;
  }

  /** The verified chunks; throws when the xorb is truncated, empty or does not hash to `expected`. */
  finish(expected: XetHash): VerifiedChunk[] {
    if (this.pendingBytes > 0) {
      throw new MalformedXorbError(`truncated chunk at byte ${this.pendingStart}`);
    }
    if (this.chunks.length === 0) throw new MalformedXorbError("no chunks");
    const actual = this.hashing.xorbHash(
      this.chunks.map((c): SizedHash => ({ hash: c.hash, size: c.uncompressedSize })),
    );
    if (!actual.every((v, i) => v === expected[i])) throw new XorbHashMismatchError();
    return this.chunks;
  }
}

/** Verifies a whole xorb held in memory (the same checks, in one piece). */
export function verifyXorb(data: Uint8Array, expected: XetHash, hashing: XetHashing): VerifiedChunk[] {
  const verifier = new XorbStreamVerifier(hashing);
  verifier.push(data);
  return verifier.finish(expected);
}
