/**
 * Python's exact ints beyond 2**53. Ints stay JS numbers while they are safe (the fast path every operator
 * takes first); an int result that leaves the safe range is redone here with bigints, and bigints come back
 * to numbers as soon as they are safe again (normInt), so a bigint is always an int beyond 2**53.
 */

import { LimitExceededError, TemplateRuntimeError } from "../errors.js";
import { chargeWork } from "./state.js";
import { bigOf, normInt } from "./values.js";

/**
 * Python has no bound; a template does: 2**20 bits (315,653 decimal digits, far past anything printable,
 * since Python refuses to print ints of more than 4,300 digits) keeps every operation fast.
 */
export const MAX_INT_BITS = 2 ** 20;

/** Python's limit for converting between int and str (sys.get_int_max_str_digits()). */
export const MAX_STR_DIGITS = 4300;

/** Bits of |n| (0 for 0). */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  if (n < 0x20000000000000n) return n === 0n ? 0 : Math.floor(Math.log2(Number(n))) + 1;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + Math.floor(Math.log2(Number.parseInt(hex[0]!, 16))) + 1;
}

function checkBits(bits: number): void {
  if (bits > MAX_INT_BITS) {
    throw new LimitExceededError(
      `integer of ~${Math.round(bits)} bits exceeds the limit of ${MAX_INT_BITS} bits`,
    );
  }
}

/*
 * Big-int work is charged to the render's step budget (~0.2 us a step here) by what V8 spends on it,
 * measured: a product or quotient of a- and b-bit ints ~ a*b/50,000 steps, a decimal conversion of n bits
 * ~ n**1.5/230 (7**4000 printed costs ~1 ms). Ints below 2**2048 cost too little to count.
 */
function chargeProduct(bitsA: number, bitsB: number): void {
  if (bitsA + bitsB > 2048) chargeWork((bitsA * bitsB) / 50_000);
}

export type IntValue = number | bigint | boolean;

/** `a + b`, `a - b`, `a * b` of two ints, exactly. */
export function bigArith(op: "+" | "-" | "*", a: IntValue, b: IntValue): number | bigint {
  const x = bigOf(a);
  const y = bigOf(b);
  if (op === "*") {
    const bx = bitLength(x);
    const by = bitLength(y);
    checkBits(bx + by);
    chargeProduct(bx, by);
    return normInt(x * y);
  }
  return normInt(op === "+" ? x + y : x - y);
}

/** Python's int `//` (floor division); the divisor is not zero. */
export function bigFloorDiv(a: IntValue, b: IntValue): number | bigint {
  const x = bigOf(a);
  const y = bigOf(b);
  chargeProduct(bitLength(x), bitLength(y));
  let q = x / y;
  if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
  return normInt(q);
}

/** Python's int `%`: the result takes the divisor's sign; the divisor is not zero. */
export function bigMod(a: IntValue, b: IntValue): number | bigint {
  const y = bigOf(b);
  chargeProduct(bitLength(y), bitLength(bigOf(a)));
  let r = bigOf(a) % y;
  if (r !== 0n && r < 0n !== y < 0n) r += y;
  return normInt(r);
}

/** `base ** exp` of two ints, exp >= 0. */
export function bigPow(base: IntValue, exp: IntValue): number | bigint {
  const x = bigOf(base);
  const e = bigOf(exp);
  if (x === 0n || x === 1n) return e === 0n ? 1 : Number(x);
  if (x === -1n) return e % 2n === 0n ? 1 : -1;
  const bits = bitLength(x) * Number(e);
  checkBits(bits);
  chargeProduct(bits, bits / 2);
  return normInt(x ** e);
}

function overflow(message: string): TemplateRuntimeError {
  return new TemplateRuntimeError(message, "OverflowError");
}

/** float(int), as Python converts an int operand of a float operation: OverflowError past 1.8e308. */
export function intToFloat(n: number | bigint): number {
  if (typeof n === "number") return n;
  const f = Number(n);
  if (!Number.isFinite(f)) throw overflow("int too large to convert to float");
  return f;
}

/**
 * Python's int `/`: the correctly rounded quotient. Above 2**53 both operands are scaled so that the
 * quotient keeps 55 bits plus a sticky bit, then rounded once by the bigint-to-number conversion.
 */
export function bigTrueDiv(a: IntValue, b: IntValue): number {
  let x = bigOf(a);
  let y = bigOf(b);
  const negative = x < 0n !== y < 0n;
  if (x < 0n) x = -x;
  if (y < 0n) y = -y;
  const shift = 55 - (bitLength(x) - bitLength(y));
  if (shift > 0) x <<= BigInt(shift);
  else y <<= BigInt(-shift);
  let q = x / y;
  q = (q << 1n) | (x % y === 0n ? 0n : 1n);
  // 2 ** -(shift + 1) is applied in two exact steps where one would underflow.
  let result = Number(q);
  let scale = -(shift + 1);
  while (scale !== 0) {
    const step = Math.max(-1000, Math.min(1000, scale));
    result *= 2 ** step;
    scale -= step;
  }
  if (!Number.isFinite(result)) throw overflow("integer division result too large for a float");
  return negative ? -result : result;
}

/** Python's str(int): exact digits, refused past 4,300 of them as Python refuses. */
export function bigToString(n: bigint): string {
  const bits = bitLength(n);
  if (bits > 2048) chargeWork(bits ** 1.5 / 230);
  if (bits > MAX_STR_DIGITS * 3.32) {
    const text = n.toString();
    if (text.length - (n < 0n ? 1 : 0) > MAX_STR_DIGITS) {
      throw new TemplateRuntimeError(
        `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
        "ValueError",
      );
    }
    return text;
  }
  return n.toString();
}

/** Python's refusal to read an int of more than 4,300 digits (in a base that is not a power of two). */
export function checkStrDigits(count: number): void {
  if (count > MAX_STR_DIGITS) {
    throw new TemplateRuntimeError(
      `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion: value has ${count} digits; use sys.set_int_max_str_digits() to increase the limit`,
      "ValueError",
    );
  }
}
