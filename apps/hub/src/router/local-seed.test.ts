import { describe, expect, it } from "vitest";
import { MAX_SEED, MIN_SEED, samplerSeed } from "./local-seed.js";

describe("the local provider's sampler seed", () => {
  it("is the caller's seed from 0 to 2^32 - 1", () => {
    for (const seed of [0, 1, 7, 2 ** 31, 2 ** 32 - 1]) expect(samplerSeed(seed)).toBe(seed);
  });

  it("tells apart seeds that differ only above bit 31, which modulo 2^32 merged", () => {
    expect(samplerSeed(2 ** 32 + 5)).not.toBe(samplerSeed(5));
    expect(samplerSeed(2 ** 40 + 5)).not.toBe(samplerSeed(2 ** 41 + 5));
    expect(samplerSeed(-1)).not.toBe(samplerSeed(2 ** 32 - 1));
  });

  it("maps every seed of OpenAI's 64-bit range to an unsigned 32-bit one, the same each time", () => {
    for (const seed of [MIN_SEED, -(2 ** 53), -1, 2 ** 53 + 2, Number("9223372036854775807"), MAX_SEED]) {
      const mapped = samplerSeed(seed);
      expect(Number.isInteger(mapped) && mapped >= 0 && mapped < 2 ** 32).toBe(true);
      expect(samplerSeed(seed)).toBe(mapped);
    }
  });

  it("refuses a seed past the range, or not whole", () => {
    for (const seed of [2 ** 64, -(2 ** 64), 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => samplerSeed(seed)).toThrow(/signed 64-bit range/);
    }
  });
});
