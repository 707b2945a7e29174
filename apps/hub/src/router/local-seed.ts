/**
 * OpenAI takes any signed 64-bit `seed`; llama.cpp's sampler takes an unsigned 32-bit one. The largest and
 * smallest seeds a caller may send (2^63 - 1 reads as the double 2^63, as JSON numbers are read here).
 */
export const MAX_SEED = 2 ** 63;
export const MIN_SEED = -(2 ** 63);

/** Why a seed is refused: past OpenAI's 64-bit range, or not a whole number. */
export const SEED_RANGE_MESSAGE =
  "seed is a whole number in OpenAI's signed 64-bit range (-9223372036854775808 to 9223372036854775807)";

/**
 * The sampler's seed for a caller's: its 64 bits (two's complement) with the high half XORed into the low
 * half, so that the same seed always samples the same tokens and seeds that differ only above bit 31 (5 and
 * 2^32 + 5) do not silently sample alike, as a plain modulo 2^32 made them. A seed from 0 to 2^32 - 1 is
 * itself. Past 2^53 a JSON number is read as the nearest double: seeds that close read, and sample, alike.
 */
export function samplerSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < MIN_SEED || seed > MAX_SEED) throw new RangeError(SEED_RANGE_MESSAGE);
  // 2^63 (how 2^63 - 1 reads) is one past the signed range: as unsigned 64 bits it is 2^63 all the same.
  const bits = BigInt.asUintN(64, BigInt(seed));
  return Number((bits ^ (bits >> 32n)) & 0xffff_ffffn);
}
