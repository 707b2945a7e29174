import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Compression, serializeXorb } from "../lfs-xet/xorb.js";
import { chunksOfRange, type FetchedChunk, XetPullError } from "./xet-pull.js";

/** Chunks of both kinds: random (stored as is) and repetitive (LZ4-compressed). */
const raw = [
  randomBytes(5000),
  Buffer.alloc(7000, "ab"),
  randomBytes(13),
  Buffer.alloc(20_000, "xyz"),
  randomBytes(9000),
];
const xorb = serializeXorb(raw, Compression.Lz4);

/** `bytes` as a body arriving in pieces of `size` bytes (the last one shorter). */
async function* inPieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(chunks: AsyncIterable<FetchedChunk>): Promise<FetchedChunk[]> {
  const out: FetchedChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe("an upstream xorb range read as it streams in", () => {
  it("yields every chunk decoded, whatever the size of the reads (headers and chunks split anywhere)", async () => {
    for (const size of [1, 3, 7, 8, 9, 1000, 4099, xorb.length]) {
      let counted = 0;
      const chunks = await collect(
        chunksOfRange(inPieces(xorb, size), "x", 10, xorb.length, (bytes) => {
          counted += bytes;
        }),
      );
      expect(chunks.map((chunk) => chunk.index)).toEqual([10, 11, 12, 13, 14]);
      for (const [i, chunk] of chunks.entries()) expect(Buffer.from(chunk.data).equals(raw[i]!)).toBe(true);
      expect(Buffer.concat(chunks.map((chunk) => chunk.serialized)).equals(Buffer.from(xorb))).toBe(true);
      expect(counted).toBe(xorb.length);
    }
  });

  it("refuses a range cut short or longer than asked", async () => {
    const cut = chunksOfRange(
      inPieces(xorb.subarray(0, xorb.length - 3), 4096),
      "x",
      0,
      xorb.length,
      () => {},
    );
    await expect(collect(cut)).rejects.toBeInstanceOf(XetPullError);
    const short = chunksOfRange(inPieces(xorb, 4096), "x", 0, xorb.length + 10, () => {});
    await expect(collect(short)).rejects.toThrow(/sent \d+ bytes of xorb x for a range of/);
  });
});
