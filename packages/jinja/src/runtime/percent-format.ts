import { TemplateRuntimeError } from "../errors.js";
import { intToFloat } from "./integers.js";
import { checkPadding } from "./limits.js";
import { formatFloat, formatInt, pyRepr, pyStr } from "./printing.js";
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
  if (prec !== undefined) checkPadding(prec);
  switch (conv) {
    case "s":
      body = pyStr(value);
      if (prec !== undefined) body = [...body].slice(0, prec).join("");
      break;
    case "r":
    case "a":
      body = pyRepr(value);
      if (prec !== undefined) body = [...body].slice(0, prec).join("");
      break;
    case "c":
      if (typeof value === "string" && [...value].length === 1) body = value;
      else if (typeof value === "bigint")
        throw new TemplateRuntimeError("%c arg not in range(0x110000)", "OverflowError");
      else if (Number.isInteger(value) || typeof value === "boolean")
        body = String.fromCodePoint(Number(value));
      else throw new TemplateRuntimeError("%c requires int or char");
      break;
    default: {
      if (!isNumber(value) && typeof value !== "boolean") {
        throw new TemplateRuntimeError(`%${conv} format: a real number is required, not ${typeName(value)}`);
      }
      if (typeof value === "bigint") {
        body = formatBigInt(value, conv, prec, flags);
        break;
      }
      const n = num(value);
      body = formatNumber(n, conv, prec, flags, value instanceof PyFloat || !Number.isInteger(n));
    }
  }
  const w = width === undefined || width === "*" ? 0 : Number(width);
  checkPadding(w);
  const padding = w - [...body].length;
  if (padding <= 0) return body;
  if (flags.includes("-")) return body + " ".repeat(padding);
  if (flags.includes("0") && !"srac".includes(conv)) {
    // Zeros go after the sign and any 0x prefix.
    const lead = /^[-+ ]?(?:0[xXob])?/.exec(body)![0];
    return lead + "0".repeat(padding) + body.slice(lead.length);
  }
  return " ".repeat(padding) + body;
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

const INTEGER_CONVERSIONS: Record<string, number> = { d: 10, i: 10, u: 10, x: 16, X: 16, o: 8, b: 2 };

/**
 * The digits of `n` for the conversions that printf-style `%` formatting and format specs share: integer
 * (`d`, `x`, `o`, `b`, ...), fixed (`f`), exponent (`e`) and general (`g`, `G`; `generalNone` for a format
 * spec without a type); null for any other conversion.
 */
export function formatDigits(
  n: number | bigint,
  conv: string | undefined,
  prec: number | undefined,
  generalNone = false,
  alternate = false,
): string | null {
  const upper = conv === "X" || conv === "E" || conv === "F" || conv === "G";
  const base = INTEGER_CONVERSIONS[conv ?? ""];
  if (typeof n === "bigint") {
    // An int past 2**53: exact digits for the integer conversions, float(n) for the others.
    if (base !== undefined) {
      const digits = base === 10 ? formatInt(n) : n.toString(base);
      const prefix = alternate && base !== 10 ? `0${conv === "X" ? "X" : conv}` : "";
      return prefix + (upper ? digits.toUpperCase() : digits);
    }
    if (!generalNone && (conv === undefined || !"eEfFgG".includes(conv))) return null;
    n = intToFloat(n);
  }
  if (base !== undefined) {
    if (!Number.isFinite(n)) {
      const nan = Number.isNaN(n);
      throw new TemplateRuntimeError(
        `cannot convert float ${nan ? "NaN" : "infinity"} to integer`,
        nan ? "ValueError" : "OverflowError",
      );
    }
    const digits = base === 10 ? formatInt(Math.trunc(n)) : Math.trunc(n).toString(base);
    // The alternate form (`#`) marks the base: 0x, 0o, 0b.
    const prefix = alternate && base !== 10 ? `0${conv === "X" ? "X" : conv}` : "";
    return prefix + (upper ? digits.toUpperCase() : digits);
  }
  let s: string;
  if (conv === "f" || conv === "F") {
    s = toFixed(n, prec ?? 6);
    if (alternate && prec === 0) s += ".";
  } else if (conv === "e" || conv === "E") s = exponent(n, prec ?? 6);
  else if (conv === "g" || conv === "G" || generalNone) s = general(n, prec ?? 6, generalNone, alternate);
  else return null;
  return upper ? s.toUpperCase() : s;
}

/** `%e`: mantissa with `digits` decimals, exponent with a sign and at least two digits. */
function exponent(n: number, digits: number): string {
  if (!Number.isFinite(n)) return toFixed(n, 0);
  const [m, e] = n.toExponential(digits).split("e") as [string, string];
  const exp = Number(e);
  return `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/**
 * `%g`: `precision` significant digits, fixed notation for exponents from -4 to below the precision
 * (below precision - 1 for a spec without a type, which also keeps one decimal), trailing zeros dropped.
 */
function general(n: number, precision: number, noType: boolean, keepZeros: boolean): string {
  if (!Number.isFinite(n)) return toFixed(n, 0);
  const p = Math.max(1, precision);
  const exp = Number(n.toExponential(p - 1).split("e")[1]);
  const strip = (text: string) => (text.includes(".") && !keepZeros ? text.replace(/\.?0+$/, "") : text);
  if (exp < -4 || exp >= p - (noType ? 1 : 0)) {
    const [m, e] = exponent(n, p - 1).split("e") as [string, string];
    return `${strip(m)}e${e}`;
  }
  const fixed = strip(toFixed(n, p - 1 - exp));
  // The alternate form always shows the point; a spec without a type shows one decimal.
  if (fixed.includes(".")) return fixed;
  return keepZeros ? `${fixed}.` : noType ? `${fixed}.0` : fixed;
}

/** `%d`, `%x`... of an int past 2**53: exact digits; the float conversions take float(n) as Python does. */
function formatBigInt(n: bigint, conv: string, prec: number | undefined, flags: string): string {
  if (INTEGER_CONVERSIONS[conv] === undefined) return formatNumber(intToFloat(n), conv, prec, flags, false);
  const abs = n < 0n ? -n : n;
  let s = formatDigits(abs, conv, prec, false, flags.includes("#"))!;
  if (prec !== undefined) {
    const prefix = flags.includes("#") && conv !== "d" && conv !== "i" && conv !== "u" ? 2 : 0;
    s = s.slice(0, prefix) + s.slice(prefix).padStart(prec, "0");
  }
  return (n < 0n ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "") + s;
}

function formatNumber(
  n: number,
  conv: string,
  prec: number | undefined,
  flags: string,
  isFloat: boolean,
): string {
  if (isFloat && "xXo".includes(conv)) {
    throw new TemplateRuntimeError(`%${conv} format: an integer is required, not float`);
  }
  const integer = INTEGER_CONVERSIONS[conv] !== undefined;
  // Integer conversions truncate first (-0.5 prints as 0); float ones keep the sign of -0.0.
  const value = integer ? Math.trunc(n) + 0 : n;
  const negative = value < 0 || Object.is(value, -0);
  const abs = Math.abs(value);
  const alternate = flags.includes("#");
  let s = formatDigits(abs, conv, prec, false, alternate) ?? (isFloat ? formatFloat(abs) : String(abs));
  // An integer conversion's precision is its minimum number of digits (after any 0x prefix).
  if (prec !== undefined && integer) {
    const prefix = alternate && conv !== "d" && conv !== "i" && conv !== "u" ? 2 : 0;
    s = s.slice(0, prefix) + s.slice(prefix).padStart(prec, "0");
  }
  return (negative ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "") + s;
}
