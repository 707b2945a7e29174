import { GEAR_HIGH, GEAR_LOW } from "./gear-hash.js";

/** Chunk size bounds of the Xet content-defined chunking (specification: chunking). */
export const MIN_CHUNK_SIZE = 8 * 1024;
export const MAX_CHUNK_SIZE = 128 * 1024;
/**
 * The gear hash only depends on the last 64 bytes it saw (each byte is shifted out after 64 steps), so the
 * first bytes of a chunk that can never end it need not be hashed: start hashing this many bytes in and the
 * hash at MIN_CHUNK_SIZE is the same as a byte-by-byte scan's.
 */
const SKIP_BEFORE_HASHING = MIN_CHUNK_SIZE - 64 - 1;
/** The boundary test `(h & 0xffff000000000000) == 0` on the high 32-bit half (as a signed 32-bit integer). */
const HIGH_MASK = 0xffff0000 | 0;
const SIGN = 0x80000000 | 0;
// Signed views of the table: the loop stays on small integers the engine keeps unboxed.
const HIGH = Int32Array.from(GEAR_HIGH, (v) => v | 0);
const LOW = Int32Array.from(GEAR_LOW, (v) => v | 0);

/**
 * Streaming content-defined chunker: feed bytes in any pieces with `update`, which returns the lengths of the
 * chunks those bytes completed; `finish` returns the length of the last, partial chunk (if any). The same
 * bytes give the same boundaries however they are split.
 */
export class Chunker {
  private high = 0;
  private low = 0;
  private size = 0;

  update(data: Uint8Array): number[] {
    const lengths: number[] = [];
    let high = this.high;
    let low = this.low;
    let size = this.size;
    let i = 0;
    const n = data.length;
    while (i < n) {
      if (size < SKIP_BEFORE_HASHING) {
        const skip = Math.min(SKIP_BEFORE_HASHING - size, n - i);
        size += skip;
        i += skip;
        continue;
      }
      const byte = data[i] as number;
      const tableLow = LOW[byte] as number;
      const sumLow = ((low << 1) + tableLow) | 0;
      // The 32-bit sum wrapped (a carry into the high half) iff, unsigned, it is below the addend.
      const carry = (sumLow ^ SIGN) < (tableLow ^ SIGN) ? 1 : 0;
      high = (((high << 1) | (low >>> 31)) + (HIGH[byte] as number) + carry) | 0;
      low = sumLow;
      size++;
      i++;
      if (size >= MIN_CHUNK_SIZE && (size >= MAX_CHUNK_SIZE || (high & HIGH_MASK) === 0)) {
        lengths.push(size);
        high = 0;
        low = 0;
        size = 0;
      }
    }
    this.high = high;
    this.low = low;
    this.size = size;
    return lengths;
  }

  finish(): number | undefined {
    const last = this.size > 0 ? this.size : undefined;
    this.high = 0;
    this.low = 0;
    this.size = 0;
    return last;
  }
}

/** The chunks of a whole buffer, as `[start, end)` offsets. */
export function chunkRanges(data: Uint8Array): Array<{ start: number; end: number }> {
  const chunker = new Chunker();
  const lengths = chunker.update(data);
  const last = chunker.finish();
  if (last !== undefined) lengths.push(last);
  const ranges: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (const length of lengths) {
    ranges.push({ start, end: start + length });
    start += length;
  }
  return ranges;
}
