import { describe, expect, it } from "vitest";
import { pseudoRandomBytes, sameBytes } from "./__fixtures__/bytes.js";
import { chunkRanges } from "./chunker.js";
import { loadXetHashing } from "./hashes.js";
import {
  Compression,
  decodeChunk,
  groupBytes4,
  MalformedXorbError,
  parseXorbChunks,
  serializeXorb,
  ungroupBytes4,
  XorbHashMismatchError,
} from "./xorb.js";
import { verifyXorb, XorbStreamVerifier } from "./xorb-stream.js";

async function sampleXorb(compression: Compression) {
  const hashing = await loadXetHashing();
  // Compressible data (repeated text with noise) so LZ4 and byte grouping really apply.
  const text = new TextEncoder().encode("weights 0.125 0.25 0.5 1.0 ".repeat(20_000));
  const data = new Uint8Array(text.length + 100_000);
  data.set(text);
  data.set(pseudoRandomBytes(100_000, 9), text.length);
  const chunks = chunkRanges(data).map((r) => data.subarray(r.start, r.end));
  const hash = hashing.xorbHash(chunks.map((c) => ({ hash: hashing.chunkHash(c), size: c.length })));
  return { hashing, data, chunks, hash, xorb: serializeXorb(chunks, compression) };
}

describe("xorbs", () => {
  it.each([Compression.None, Compression.Lz4, Compression.ByteGrouping4Lz4])(
    "round-trip and verify with compression scheme %i",
    async (compression) => {
      const { hashing, chunks, hash, xorb } = await sampleXorb(compression);
      const verified = verifyXorb(xorb, hash, hashing);
      expect(verified.length).toBe(chunks.length);
      expect(verified.every((c, i) => sameBytes(decodeChunk(xorb, c), chunks[i] as Uint8Array))).toBe(true);
      if (compression !== Compression.None)
        expect(xorb.length).toBeLessThan(chunks.reduce((n, c) => n + c.length, 0));
    },
  );

  it("byte grouping regroups bytes by position modulo 4, with a ragged tail", () => {
    const data = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...groupBytes4(data)]).toEqual([1, 5, 9, 2, 6, 10, 3, 7, 4, 8]);
    for (const n of [0, 1, 2, 3, 4, 5, 1001]) {
      const bytes = pseudoRandomBytes(n, n + 1);
      expect(ungroupBytes4(groupBytes4(bytes))).toEqual(bytes);
    }
  });

  it("refuses a xorb whose hash is not the one claimed", async () => {
    const { hashing, xorb } = await sampleXorb(Compression.Lz4);
    expect(() => verifyXorb(xorb, new Uint8Array(32), hashing)).toThrow(XorbHashMismatchError);
  });

  it("refuses truncated, corrupted and empty xorbs", async () => {
    const { hashing, hash, xorb } = await sampleXorb(Compression.Lz4);
    expect(() => verifyXorb(xorb.subarray(0, xorb.length - 7), hash, hashing)).toThrow(MalformedXorbError);
    expect(() => verifyXorb(xorb.subarray(0, 5), hash, hashing)).toThrow(MalformedXorbError);
    expect(() => parseXorbChunks(new Uint8Array(0))).toThrow(MalformedXorbError);
    const badVersion = xorb.slice();
    badVersion[0] = 3;
    expect(() => verifyXorb(badVersion, hash, hashing)).toThrow(MalformedXorbError);
    const badScheme = xorb.slice();
    badScheme[4] = 9;
    expect(() => verifyXorb(badScheme, hash, hashing)).toThrow(MalformedXorbError);
    // Flip bytes inside the first chunk's compressed data: it no longer decodes, or decodes to other bytes.
    const flipped = xorb.slice();
    for (let i = 20; i < 60; i++) flipped[i] = (flipped[i] as number) ^ 0x5a;
    expect(() => verifyXorb(flipped, hash, hashing)).toThrow(Error);
  });

  it("verifies a xorb streamed in pieces of any size, footer included, as it does in one piece", async () => {
    const { hashing, hash, xorb } = await sampleXorb(Compression.Lz4);
    const footer = new TextEncoder().encode("XETBLOB and whatever the client writes after it");
    const withFooter = new Uint8Array(xorb.length + footer.length);
    withFooter.set(xorb);
    withFooter.set(footer, xorb.length);
    const whole = verifyXorb(withFooter, hash, hashing);
    for (const step of [1, 3, 1000, 65_536]) {
      const verifier = new XorbStreamVerifier(hashing);
      for (let at = 0; at < withFooter.length; at += step) verifier.push(withFooter.subarray(at, at + step));
      expect(verifier.size).toBe(withFooter.length);
      expect(verifier.finish(hash)).toEqual(whole);
    }
    const cut = new XorbStreamVerifier(hashing);
    cut.push(xorb.subarray(0, xorb.length - 3));
    expect(() => cut.finish(hash)).toThrow(MalformedXorbError);
  });
});
