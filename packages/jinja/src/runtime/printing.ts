import { bigToString } from "./integers.js";
import { lazyRegExp } from "./lazy-regexp.js";
import { chargeConversion, checkSizeCap, sizeCap } from "./state.js";
import {
  dictKeys,
  isMapping,
  isTuple,
  isUndefined,
  Markup,
  Namespace,
  PyBytes,
  PyCallable,
  PyFloat,
  PyGenerator,
  pythonKey,
  type RangeBounds,
  rangeBounds,
  viewName,
} from "./values.js";

/** Python's repr() of a float: shortest round-trip digits, exponent form outside 1e-4 <= |x| < 1e16. */
export function formatFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = n.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const sign = n < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Python's str() of an int (exact digits, no exponent; ValueError past 4,300 digits as in Python). */
export function formatInt(n: number | bigint): string {
  if (typeof n === "bigint") return bigToString(n);
  return Math.abs(n) <= Number.MAX_SAFE_INTEGER ? String(n) : BigInt(n).toString();
}

const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;
/** What repr() may escape: quotes, backslash, C0 controls and DEL, and Python's non-printable characters. */
const REPR_SPECIAL = lazyRegExp(
  String.raw`['"\\\x00-\x1f\x7f]|[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]`,
  "gu",
);
const NAMED_ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Python's repr() of a str, including its choice of quote and escapes. */
export function reprString(s: string): string {
  if (PLAIN_ASCII.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const escaped = s.replace(REPR_SPECIAL(), (ch) => {
    if (ch === "'" || ch === '"') return ch === quote ? `\\${ch}` : ch;
    if (ch === " ") return ch;
    const named = NAMED_ESCAPES[ch];
    if (named !== undefined) return named;
    const code = ch.codePointAt(0)!;
    const hex = code.toString(16);
    if (code < 0x100) return `\\x${hex.padStart(2, "0")}`;
    return code < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
  });
  return quote + escaped + quote;
}

/** Python's repr(); within a render, bounded by its size cap while it is built, and charged to its steps. */
export function pyRepr(v: unknown): string {
  if (typeof v === "string") return reprString(v);
  if (!Array.isArray(v) && !isMapping(v) && !(v instanceof Namespace)) return reprValue(v, sizeCap());
  const text = reprValue(v, sizeCap());
  chargeConversion(text.length);
  return text;
}

let byteReprs: string[] | undefined;

/** Python's bytes repr: `b'a\\x00'`, double quotes when only those avoid escaping a `'`. */
export function reprBytes(bytes: Uint8Array): string {
  byteReprs ??= Array.from({ length: 256 }, (_, b) =>
    b === 92
      ? "\\\\"
      : b === 9
        ? "\\t"
        : b === 10
          ? "\\n"
          : b === 13
            ? "\\r"
            : b < 32 || b >= 127
              ? `\\x${b.toString(16).padStart(2, "0")}`
              : String.fromCharCode(b),
  );
  const table = byteReprs;
  const doubleQuoted = bytes.includes(39) && !bytes.includes(34);
  const quote = doubleQuoted ? '"' : "'";
  const cap = sizeCap();
  const parts: string[] = [];
  let length = 3;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const part = b === 39 && !doubleQuoted ? "\\'" : table[b]!;
    parts.push(part);
    length += part.length;
    if (length > cap) checkSizeCap(length);
  }
  return `b${quote}${parts.join("")}${quote}`;
}

/** `range(0, 3)`, `range(1, 10, 2)`. */
export function rangeRepr([start, stop, step]: RangeBounds): string {
  return step === 1 || step === 1n ? `range(${start}, ${stop})` : `range(${start}, ${stop}, ${step})`;
}

/** Throws the size-limit error as soon as a container's text passes `cap`, before it grows further. */
function checkGrowth(length: number, cap: number): void {
  if (length > cap) checkSizeCap(length);
}

function reprValue(v: unknown, cap: number): string {
  // Scalars first: they are most of what a large container holds.
  if (typeof v === "number") return Number.isInteger(v) ? formatInt(v) : formatFloat(v);
  if (typeof v === "string") return reprString(v);
  if (typeof v === "bigint") return bigToString(v);
  if (Array.isArray(v)) {
    const range = rangeBounds(v);
    if (range !== undefined) return rangeRepr(range);
    const view = viewName(v);
    if (view !== undefined) return `${view}(${reprValue(v.slice(), cap)})`;
    const tuple = isTuple(v);
    // Parts joined once (far less garbage than a growing string), their total checked as they come.
    const parts: string[] = new Array(v.length);
    let length = 2;
    for (let i = 0; i < v.length; i++) {
      const part = reprValue(v[i], cap);
      parts[i] = part;
      length += part.length + 2;
      checkGrowth(length, cap);
    }
    const inner = parts.join(", ");
    if (tuple) return v.length === 1 ? `(${inner},)` : `(${inner})`;
    return `[${inner}]`;
  }
  if (isMapping(v)) return reprDict(v, cap);
  if (isUndefined(v)) return "Undefined";
  if (v instanceof Markup) return `Markup(${reprString(v.text)})`;
  if (v instanceof Namespace) return `<Namespace ${reprDict(v.attrs, cap)}>`;
  return pyStr(v);
}

function reprDict(v: Record<string, unknown>, cap: number): string {
  const parts: string[] = [];
  let length = 2;
  for (const key of dictKeys(v)) {
    const name = key.charCodeAt(0) === 0 ? reprValue(pythonKey(v, key), cap) : reprString(key);
    const part = `${name}: ${reprValue(v[key], cap)}`;
    parts.push(part);
    length += part.length + 2;
    checkGrowth(length, cap);
  }
  return `{${parts.join(", ")}}`;
}

/** Python's str(), as `{{ value }}` prints it. Undefined prints as the empty string. */
export function pyStr(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v;
    case "number":
      return Number.isInteger(v) ? formatInt(v) : formatFloat(v);
    case "boolean":
      return v ? "True" : "False";
    case "bigint":
      return bigToString(v);
    case "undefined":
      return "";
    case "function":
      return "<function>";
  }
  if (v === null) return "None";
  if (v instanceof PyFloat) return formatFloat(v.value);
  if (isUndefined(v)) return "";
  if (v instanceof Markup) return v.text;
  if (Array.isArray(v) || isMapping(v) || v instanceof Namespace) return pyRepr(v);
  if (v instanceof PyBytes) return reprBytes(v.bytes);
  // Python prints the generator's address; a fixed one keeps output deterministic.
  if (v instanceof PyGenerator) {
    return v.pyType === "generator"
      ? `<generator object ${v.producer} at 0x7f0000000000>`
      : `<${v.pyType} object at 0x7f0000000000>`;
  }
  if (v instanceof PyCallable)
    return v.kind === "macro" ? `<Macro '${v.name}'>` : `<built-in method ${v.name}>`;
  return "<object>";
}
