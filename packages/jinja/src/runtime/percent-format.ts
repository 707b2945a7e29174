import { TemplateRuntimeError } from "../errors.js";
import { checkPadding } from "./operators.js";
import { formatFloat, pyRepr, pyStr } from "./printing.js";
import { isNumber, num, PyFloat, typeName } from "./values.js";

/** One `%`-style conversion (`'%5.2f' % x`), as Python's str.__mod__ does it. */
export function formatDirective(
  value: unknown,
  flags: string,
  width: string | undefined,
  precision: string | undefined,
  conv: string,
): string {
  let body: string;
  const prec = precision === undefined ? undefined : Number(precision);
  switch (conv) {
    case "s":
      body = pyStr(value);
      if (prec !== undefined) body = body.slice(0, prec);
      break;
    case "r":
    case "a":
      body = pyRepr(value);
      break;
    case "c":
      body = typeof value === "number" ? String.fromCodePoint(value) : pyStr(value);
      break;
    default: {
      if (!isNumber(value) && typeof value !== "boolean") {
        throw new TemplateRuntimeError(`%${conv} format: a real number is required, not ${typeName(value)}`);
      }
      const n = num(value);
      body = formatNumber(n, conv, prec, flags, value instanceof PyFloat || !Number.isInteger(n));
    }
  }
  const w = width === undefined || width === "*" ? 0 : Number(width);
  checkPadding(w);
  if (body.length >= w) return body;
  if (flags.includes("-")) return body.padEnd(w);
  if (flags.includes("0") && conv !== "s" && conv !== "r") {
    const sign = body[0] === "-" || body[0] === "+" ? body[0] : "";
    return sign + body.slice(sign.length).padStart(w - sign.length, "0");
  }
  return body.padStart(w);
}

/** Number.toFixed without its switch to exponent notation at 1e21 (floats that large are integers). */
export function toFixed(n: number, digits: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "nan" : n > 0 ? "inf" : "-inf";
  if (Math.abs(n) < 1e21) {
    // toFixed rounds exact ties away from zero; C's printf (and so Python) rounds them to even.
    const exact = Math.abs(n).toFixed(Math.min(100, digits + 25));
    const dot = exact.indexOf(".");
    if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
      const truncated = digits === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + digits);
      if (Number(truncated[truncated.length - 1]) % 2 === 0) return (n < 0 ? "-" : "") + truncated;
    }
    return n.toFixed(digits);
  }
  return BigInt(n).toString() + (digits > 0 ? `.${"0".repeat(digits)}` : "");
}

/**
 * The digits of `n` for the integer, fixed and exponent conversions that printf-style `%` formatting and
 * format specs share (`d`, `x`, `X`, `o`, `b`, `f`, `e`, ...); null for any other conversion.
 */
export function formatDigits(n: number, conv: string | undefined, prec: number | undefined): string | null {
  switch (conv) {
    case "d":
    case "i":
    case "u":
      return String(Math.trunc(n));
    case "x":
      return Math.trunc(n).toString(16);
    case "X":
      return Math.trunc(n).toString(16).toUpperCase();
    case "o":
      return Math.trunc(n).toString(8);
    case "b":
      return Math.trunc(n).toString(2);
    case "f":
    case "F":
      return toFixed(n, prec ?? 6);
    case "e":
    case "E": {
      const [m, e] = n.toExponential(prec ?? 6).split("e") as [string, string];
      const exp = Number(e);
      const s = `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
      return conv === "E" ? s.toUpperCase() : s;
    }
  }
  return null;
}

function formatNumber(
  n: number,
  conv: string,
  prec: number | undefined,
  flags: string,
  isFloat: boolean,
): string {
  let s = formatDigits(n, conv, prec) ?? (isFloat ? formatFloat(n) : String(n));
  if (n >= 0 && flags.includes("+")) s = `+${s}`;
  else if (n >= 0 && flags.includes(" ")) s = ` ${s}`;
  return s;
}
