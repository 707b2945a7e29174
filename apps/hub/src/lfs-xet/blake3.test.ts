import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "./__fixtures__/bytes.js";
import { defaultBlake3Backend, keyedBlake3 } from "./blake3.js";
import { hashToHex, type SizedHash, XetHashing } from "./hashes.js";

/** A deterministic sequence of integers in [0, bound), so a failing case reproduces. */
function integers(seed: number, count: number, bound: number): number[] {
  const bytes = pseudoRandomBytes(count * 4, seed);
  const view = new DataView(bytes.buffer);
  return Array.from({ length: count }, (_, i) => view.getUint32(i * 4, true) % bound);
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

// BLAKE3 works on 64-byte blocks within 1024-byte chunks, and the native code hashes up to 16 chunks at a
// time with SIMD: lengths on and around each of those edges, then random ones up to two Xet chunks (128 KiB).
const EDGES = [
  0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4095, 4096, 8191, 8192, 8193, 16383, 16384,
  16385, 32768, 65535, 65536, 65537, 131071, 131072,
];
const LENGTHS = [...EDGES, ...integers(11, 120, 131_073)];

describe("keyed BLAKE3: the native binding against hash-wasm", () => {
  it("is the native binding wherever its prebuilt package is installed (this machine and CI's)", () => {
    expect(defaultBlake3Backend()).toBe("native");
  });

  it("agrees on random messages of every length under random keys", async () => {
    for (const [k, seed] of [101, 202, 303].entries()) {
      const key = pseudoRandomBytes(32, seed);
      const native = await keyedBlake3(key, "native");
      const wasm = await keyedBlake3(key, "wasm");
      for (const [i, length] of LENGTHS.entries()) {
        const message = pseudoRandomBytes(length, 1000 * k + i + 1);
        const expected = hex(wasm(message));
        expect(hex(native(message)), `key ${seed}, length ${length}`).toBe(expected);
      }
    }
  });

  it("hashes a view of a larger buffer (a chunk within one socket read) as its own bytes", async () => {
    const key = pseudoRandomBytes(32, 5);
    const native = await keyedBlake3(key, "native");
    const wasm = await keyedBlake3(key, "wasm");
    const read = pseudoRandomBytes(300_000, 6);
    const offsets = integers(7, 40, 150_000);
    const lengths = integers(8, 40, 140_000);
    for (const [i, offset] of offsets.entries()) {
      const view = read.subarray(offset, offset + (lengths[i] as number));
      expect(hex(native(view))).toBe(hex(wasm(view.slice())));
    }
  });

  it("gives each call its own digest, which a later call leaves as it was", async () => {
    const native = await keyedBlake3(pseudoRandomBytes(32, 9), "native");
    const first = native(pseudoRandomBytes(1000, 1));
    const kept = hex(first);
    native(pseudoRandomBytes(1000, 2));
    expect(hex(first)).toBe(kept);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(first.byteLength).toBe(32);
  });

  it("refuses a key that is not 32 bytes", async () => {
    await expect(keyedBlake3(new Uint8Array(16), "native")).rejects.toThrow(/32 bytes, not 16/);
    await expect(keyedBlake3(new Uint8Array(33), "wasm")).rejects.toThrow(/32 bytes, not 33/);
  });
});

describe("Xet hashes on both backends", () => {
  it("agree on chunk, xorb, file and verification hashes of random chunks", async () => {
    const native = await XetHashing.create("native");
    const wasm = await XetHashing.create("wasm");
    expect([native.backend, wasm.backend]).toEqual(["native", "wasm"]);
    for (const seed of [1, 2, 3, 4]) {
      const sizes = integers(seed, 1 + ((seed * 37) % 90), 131_073);
      const chunks = sizes.map((size, i) => pseudoRandomBytes(size, seed * 1000 + i + 1));
      const leavesOf = (hashing: XetHashing): SizedHash[] =>
        chunks.map((c) => ({ hash: hashing.chunkHash(c), size: c.length }));
      const a = leavesOf(native);
      const b = leavesOf(wasm);
      expect(a.map((l) => hashToHex(l.hash))).toEqual(b.map((l) => hashToHex(l.hash)));
      expect(hashToHex(native.xorbHash(a))).toBe(hashToHex(wasm.xorbHash(b)));
      expect(hashToHex(native.fileHash(a))).toBe(hashToHex(wasm.fileHash(b)));
      expect(hashToHex(native.rangeVerificationHash(a.map((l) => l.hash)))).toBe(
        hashToHex(wasm.rangeVerificationHash(b.map((l) => l.hash))),
      );
    }
  });
});
