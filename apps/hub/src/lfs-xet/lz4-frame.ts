/// <reference path="./lz4js.d.ts" />
import lz4 from "lz4js";

/**
 * LZ4 frames as the Xet client writes them in xorb chunks. The block codec is lz4js's; the frame layout is
 * walked here with every length checked against the input, because lz4js's own frame reader trusts it (a
 * truncated frame would make it loop forever) and xorbs come from the network.
 */
export class Lz4FrameError extends Error {
  constructor(message: string) {
    super(`Malformed LZ4 frame: ${message}`);
    this.name = "Lz4FrameError";
  }
}

const MAGIC = 0x184d2204;
const FLAG_BLOCK_CHECKSUM = 0x10;
const FLAG_CONTENT_SIZE = 0x08;
const FLAG_CONTENT_CHECKSUM = 0x04;
const FLAG_DICTIONARY = 0x01;
const BLOCK_UNCOMPRESSED = 0x80000000;

function readU32(data: Uint8Array, at: number): number {
  if (at + 4 > data.length) throw new Lz4FrameError("truncated");
  return (
    ((data[at] as number) |
      ((data[at + 1] as number) << 8) |
      ((data[at + 2] as number) << 16) |
      ((data[at + 3] as number) << 24)) >>>
    0
  );
}

/** Decompresses one frame into exactly `expectedSize` bytes, or throws. */
export function decompressLz4Frame(frame: Uint8Array, expectedSize: number): Uint8Array {
  if (readU32(frame, 0) !== MAGIC) throw new Lz4FrameError("bad magic number");
  if (frame.length < 7) throw new Lz4FrameError("truncated header");
  const flags = frame[4] as number;
  if ((flags & 0xc0) !== 0x40) throw new Lz4FrameError("unsupported version");
  if (flags & FLAG_DICTIONARY) throw new Lz4FrameError("dictionaries are not supported");
  let at = 7 + (flags & FLAG_CONTENT_SIZE ? 8 : 0);
  const out = new Uint8Array(expectedSize);
  let written = 0;
  for (;;) {
    const word = readU32(frame, at);
    at += 4;
    if (word === 0) break;
    const size = word & ~BLOCK_UNCOMPRESSED & 0x7fffffff;
    if (at + size > frame.length) throw new Lz4FrameError("block runs past the end");
    if (word & BLOCK_UNCOMPRESSED) {
      if (written + size > expectedSize) throw new Lz4FrameError("more data than announced");
      out.set(frame.subarray(at, at + size), written);
      written += size;
    } else {
      // Decoded in place after the earlier blocks (linked blocks may refer back to them). Writes past the
      // announced size fall off the typed array and show in the returned end offset.
      const end = lz4.decompressBlock(frame, out, at, size, written);
      if (!Number.isInteger(end) || end < written || end > expectedSize) {
        throw new Lz4FrameError("a block decodes to more data than announced");
      }
      written = end;
    }
    at += size + (flags & FLAG_BLOCK_CHECKSUM ? 4 : 0);
  }
  if (flags & FLAG_CONTENT_CHECKSUM) at += 4;
  if (at !== frame.length) throw new Lz4FrameError("trailing bytes after the frame");
  if (written !== expectedSize) throw new Lz4FrameError(`decodes to ${written} bytes, not ${expectedSize}`);
  return out;
}

export function compressLz4Frame(data: Uint8Array): Uint8Array {
  return Uint8Array.from(lz4.compress(data) as ArrayLike<number>);
}
