import { LimitExceededError, TemplateRuntimeError, UndefinedError } from "../errors.js";
import { bigArith, bigFloorDiv, bigMod, bigPow, bigTrueDiv, type IntValue, intToFloat } from "./integers.js";
import { escapeArg, escapedText } from "./markup.js";
import { formatDirective } from "./percent-format.js";
import { chargeWork, checkSizeCap } from "./state.js";
import {
  dictPythonKeys,
  hashableKey,
  isMapping,
  isTuple,
  isUndefined,
  Markup,
  makeTuple,
  num,
  PyBytes,
  PyFloat,
  PyGenerator,
  pyFloat,
  rangeBounds,
  sequenceType,
  typeName,
  Undefined,
} from "./values.js";

export interface SizeLimit {
  maxOutputLength: number;
}

export function typeError(message: string): TemplateRuntimeError {
  return new TemplateRuntimeError(message, "TypeError");
}

export function undefinedError(v: unknown): UndefinedError {
  return new UndefinedError(v instanceof Undefined ? v.hint : "value is undefined");
}

/** Throws the error Jinja2's Undefined raises when it is used as an operand. */
export function failIfUndefined(v: unknown): void {
  if (isUndefined(v)) {
    if (v instanceof Undefined && v.unsafe) throw new TemplateRuntimeError(v.hint, "SecurityError");
    throw undefinedError(v);
  }
}

function isNumeric(v: unknown): v is number | bigint | PyFloat | boolean {
  return typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v instanceof PyFloat;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A numeric operand of a float operation as a JS number (an int past 1.8e308 is an OverflowError). */
function floatOf(v: number | bigint | PyFloat | boolean): number {
  return typeof v === "bigint" ? intToFloat(v) : num(v);
}

/** An int operand (bools are ints) as a number or bigint; floats are never passed here. */
function intOf(v: number | bigint | PyFloat | boolean): IntValue {
  return v as IntValue;
}

function isFloaty(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v));
}

function unsupported(op: string, a: unknown, b: unknown): TemplateRuntimeError {
  return typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

export function checkLength(length: number, limit: SizeLimit): void {
  if (length > limit.maxOutputLength) {
    throw new LimitExceededError(
      `value of ${length} characters/items exceeds the output limit of ${limit.maxOutputLength}`,
    );
  }
}

function textOf(v: unknown): string | null {
  return typeof v === "string" ? v : v instanceof Markup ? v.text : null;
}

export function add(a: unknown, b: unknown, limit: SizeLimit): unknown {
  if (typeof a === "string" && typeof b === "string") {
    if (a.length + b.length > limit.maxOutputLength) checkLength(a.length + b.length, limit);
    return a + b;
  }
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (!Number.isInteger(r)) return r;
    if (!Number.isInteger(a) || !Number.isInteger(b)) return pyFloat(r);
    return r <= MAX_SAFE && r >= -MAX_SAFE ? r : bigArith("+", a, b);
  }
  failIfUndefined(a);
  failIfUndefined(b);
  if (isNumeric(a) && isNumeric(b)) return arith("+", a, b);
  const ta = textOf(a);
  if (ta !== null) {
    const tb = textOf(b);
    if (tb === null) {
      if (a instanceof Markup) throw unsupported("+", a, b);
      throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
    }
    checkLength(ta.length + tb.length, limit);
    if (a instanceof Markup || b instanceof Markup) {
      return new Markup(escapedText(a as string | Markup) + escapedText(b as string | Markup));
    }
    return ta + tb;
  }
  if (a instanceof PyBytes) {
    if (!(b instanceof PyBytes)) throw typeError(`can't concat ${typeName(b)} to bytes`);
    return concatBytes([a.bytes, b.bytes], limit);
  }
  if (Array.isArray(a) && sequenceType(a) !== "range") {
    if (!Array.isArray(b) || sequenceType(a) !== sequenceType(b)) {
      const kind = sequenceType(a);
      throw typeError(`can only concatenate ${kind} (not "${typeName(b)}") to ${kind}`);
    }
    checkLength(a.length + b.length, limit);
    chargeWork((a.length + b.length) / 16);
    const r = a.concat(b);
    return isTuple(a) ? makeTuple(r) : r;
  }
  throw unsupported("+", a, b);
}

/**
 * `+`, `-`, `*` of two numbers as Python does them: float if either is a float (an int operand converted,
 * OverflowError past 1.8e308), else an exact int: the double result when it is safe (IEEE operations are
 * correctly rounded, so a result within 2**53 is exact), the bigint one otherwise.
 */
function arith(
  op: "+" | "-" | "*",
  a: number | bigint | PyFloat | boolean,
  b: number | bigint | PyFloat | boolean,
): number | bigint | PyFloat {
  if (isFloaty(a) || isFloaty(b)) {
    const x = floatOf(a);
    const y = floatOf(b);
    return pyFloat(op === "+" ? x + y : op === "-" ? x - y : x * y);
  }
  if (typeof a !== "bigint" && typeof b !== "bigint") {
    const x = num(a);
    const y = num(b);
    const r = op === "+" ? x + y : op === "-" ? x - y : x * y;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0;
  }
  return bigArith(op, intOf(a), intOf(b));
}

export function sub(a: unknown, b: unknown): unknown {
  failIfUndefined(a);
  failIfUndefined(b);
  if (isNumeric(a) && isNumeric(b)) return arith("-", a, b);
  throw unsupported("-", a, b);
}

export function mul(a: unknown, b: unknown, limit: SizeLimit): unknown {
  failIfUndefined(a);
  failIfUndefined(b);
  if (isNumeric(a) && isNumeric(b)) return arith("*", a, b);
  if (a instanceof Markup || b instanceof Markup) {
    const [m, n] = a instanceof Markup ? [a, b] : [b as Markup, a];
    const repeated = mul(m.text, n, limit);
    return typeof repeated === "string" ? new Markup(repeated) : repeated;
  }
  let seq = a;
  let times = b;
  if (!(typeof a === "string" || Array.isArray(a) || a instanceof PyBytes)) {
    seq = b;
    times = a;
  }
  if (
    typeof times === "bigint" &&
    (typeof seq === "string" || Array.isArray(seq) || seq instanceof PyBytes)
  ) {
    if (times >= 2n ** 63n || times < -(2n ** 63n))
      throw new TemplateRuntimeError("cannot fit 'int' into an index-sized integer", "OverflowError");
    if (times < 0n) return mul(seq, 0, limit);
    checkLength(Number(times), limit);
  }
  if (
    seq instanceof PyBytes &&
    ((typeof times === "number" && Number.isInteger(times)) || typeof times === "boolean")
  ) {
    const n = Math.max(0, num(times));
    checkLength(seq.bytes.length * n, limit);
    return concatBytes(new Array<Uint8Array>(n).fill(seq.bytes), limit);
  }
  if (typeof seq === "string" || (Array.isArray(seq) && sequenceType(seq) !== "range")) {
    if (!(typeof times === "number" && Number.isInteger(times)) && typeof times !== "boolean") {
      throw typeError(`can't multiply sequence by non-int of type '${typeName(times)}'`);
    }
    const n = Math.max(0, num(times));
    checkLength(seq.length * n, limit);
    if (Array.isArray(seq)) chargeWork((seq.length * n) / 16);
    if (typeof seq === "string") return seq.repeat(n);
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) for (const item of seq) out.push(item);
    return isTuple(seq) ? makeTuple(out) : out;
  }
  throw unsupported("*", a, b);
}

function zeroDivision(message: string): TemplateRuntimeError {
  return new TemplateRuntimeError(message, "ZeroDivisionError");
}

export function div(a: unknown, b: unknown): unknown {
  failIfUndefined(a);
  failIfUndefined(b);
  if (!isNumeric(a) || !isNumeric(b)) throw unsupported("/", a, b);
  if (isZero(b)) throw zeroDivision("division by zero");
  if (isFloaty(a) || isFloaty(b)) return pyFloat(floatOf(a) / floatOf(b));
  const x = num(a);
  const y = num(b);
  // Within 2**53 both are exact doubles and one division rounds once, as Python's does.
  if (typeof a !== "bigint" && typeof b !== "bigint" && Math.abs(x) <= MAX_SAFE && Math.abs(y) <= MAX_SAFE)
    return pyFloat(x / y);
  return pyFloat(bigTrueDiv(intOf(a), intOf(b)));
}

export function floorDiv(a: unknown, b: unknown): unknown {
  failIfUndefined(a);
  failIfUndefined(b);
  if (!isNumeric(a) || !isNumeric(b)) throw unsupported("//", a, b);
  if (isZero(b)) throw zeroDivision("integer division or modulo by zero");
  if (!isFloaty(a) && !isFloaty(b)) {
    if (typeof a !== "bigint" && typeof b !== "bigint") {
      const x = num(a);
      const y = num(b);
      if (Math.abs(x) <= MAX_SAFE && Math.abs(y) <= MAX_SAFE) {
        // fmod is exact, so is the division of the multiple it leaves (Math.floor(x / y) can round up).
        const r = x % y;
        return (x - r) / y - (r !== 0 && r < 0 !== y < 0 ? 1 : 0) + 0;
      }
    }
    return bigFloorDiv(intOf(a), intOf(b));
  }
  const x = floatOf(a);
  const y = floatOf(b);
  // CPython's float floor division: derived from fmod, with the sign of zero kept.
  const raw = x % y;
  let div = (x - raw) / y;
  if (raw !== 0 && y < 0 !== raw < 0) div -= 1;
  if (div === 0) return pyFloat(Object.is(Math.sign(x / y), -0) || x / y < 0 ? -0 : 0);
  let floor = Math.floor(div);
  if (div - floor > 0.5) floor += 1;
  return pyFloat(floor);
}

export function mod(a: unknown, b: unknown): unknown {
  failIfUndefined(a);
  if (a instanceof Markup) return new Markup(percentFormat(a.text, escapeArg(b)));
  if (typeof a === "string") return percentFormat(a, b);
  failIfUndefined(b);
  if (!isNumeric(a) || !isNumeric(b)) throw unsupported("%", a, b);
  if (isZero(b)) throw zeroDivision("integer modulo by zero");
  if (!isFloaty(a) && !isFloaty(b)) {
    if (typeof a !== "bigint" && typeof b !== "bigint") {
      const x = num(a);
      const y = num(b);
      if (Math.abs(x) <= MAX_SAFE && Math.abs(y) <= MAX_SAFE) {
        let r = x % y;
        if (r !== 0 && r < 0 !== y < 0) r += y;
        return r + 0;
      }
    }
    return bigMod(intOf(a), intOf(b));
  }
  return pyFloat(pyFloatMod(floatOf(a), floatOf(b)));
}

/** CPython's float modulo: fmod, moved to the divisor's sign; a zero result takes the divisor's sign. */
function pyFloatMod(x: number, y: number): number {
  let m = x % y;
  if (m !== 0) {
    if (y < 0 !== m < 0) m += y;
  } else {
    m = y < 0 ? -0 : 0;
  }
  return m;
}

export function pow(a: unknown, b: unknown): unknown {
  failIfUndefined(a);
  failIfUndefined(b);
  if (!isNumeric(a) || !isNumeric(b)) throw unsupported("** or pow()", a, b);
  if (isZero(a) && (typeof b === "bigint" ? b < 0n : num(b) < 0))
    throw zeroDivision("0.0 cannot be raised to a negative power");
  if (!isFloaty(a) && !isFloaty(b)) {
    if (typeof b === "bigint" ? b >= 0n : num(b) >= 0) {
      if (typeof a !== "bigint" && typeof b !== "bigint") {
        const r = num(a) ** num(b);
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
      }
      return bigPow(intOf(a), intOf(b));
    }
    // int ** -n: 1 / x**n is correctly rounded when x**n is exact (V8's pow can be off by one ulp).
    if (typeof a !== "bigint" && typeof b !== "bigint") {
      const positive = num(a) ** -num(b);
      if (Math.abs(positive) <= MAX_SAFE) return pyFloat(1 / positive);
    }
  }
  const x = floatOf(a);
  const y = floatOf(b);
  const r = x ** y;
  // Python's float pow reports overflow (float * float just gives inf).
  if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y))
    throw new TemplateRuntimeError("(34, 'Numerical result out of range')", "OverflowError");
  return pyFloat(r);
}

function isZero(v: number | bigint | PyFloat | boolean): boolean {
  return typeof v !== "bigint" && num(v) === 0;
}

export function negate(v: unknown): unknown {
  failIfUndefined(v);
  if (typeof v === "number") return -v;
  if (typeof v === "bigint") return -v;
  if (typeof v === "boolean") return v ? -1 : 0;
  if (v instanceof PyFloat) return pyFloat(-v.value);
  throw typeError(`bad operand type for unary -: '${typeName(v)}'`);
}

export function plus(v: unknown): unknown {
  failIfUndefined(v);
  if (isNumeric(v)) return typeof v === "boolean" ? num(v) : v;
  throw typeError(`bad operand type for unary +: '${typeName(v)}'`);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function concatBytes(parts: Uint8Array[], limit: SizeLimit): PyBytes {
  let length = 0;
  for (const part of parts) length += part.length;
  checkLength(length, limit);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return new PyBytes(out);
}

/** A number's exact value for comparisons: bigints stay bigints. */
function numericValue(v: number | bigint | PyFloat | boolean): number | bigint {
  return typeof v === "bigint" ? v : num(v);
}

function sameNumber(x: number | bigint, y: number | bigint): boolean {
  if (typeof x === typeof y) return x === y;
  // A bigint and a number: neither is NaN-aware, so rule NaN out, then the exact mixed comparisons decide.
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  return !(x < y) && !(x > y);
}

/** Python `==`. */
export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  if (typeof a === "number" && typeof b === "number") return false;
  if (isNumeric(a)) return isNumeric(b) && sameNumber(numericValue(a), numericValue(b));
  if (typeof a === "string") return b instanceof Markup && b.text === a;
  if (a instanceof Markup) return textOf(b) === a.text;
  if (isUndefined(a)) return isUndefined(b);
  if (a instanceof PyBytes) return b instanceof PyBytes && compareBytes(a.bytes, b.bytes) === 0;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || sequenceType(a) !== sequenceType(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!eq(a[i], b[i])) return false;
    return true;
  }
  if (isMapping(a)) {
    if (!isMapping(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !eq(a[k], b[k])) return false;
    return true;
  }
  return false;
}

const OP_NAMES = { lt: "<", le: "<=", gt: ">", ge: ">=" } as const;

/** Python ordering: returns <0, 0, >0; raises TypeError for unorderable operands. */
export function compareValues(a: unknown, b: unknown, op: keyof typeof OP_NAMES = "lt"): number {
  if (typeof a === "number" && typeof b === "number")
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN;
  failIfUndefined(a);
  failIfUndefined(b);
  if (isNumeric(a) && isNumeric(b)) {
    // Mixed bigint/number comparisons are exact in JS, as int/float ones are in Python.
    const x = numericValue(a);
    const y = numericValue(b);
    return x < y ? -1 : x > y ? 1 : sameNumber(x, y) ? 0 : Number.NaN;
  }
  const ta = textOf(a);
  const tb = textOf(b);
  if (ta !== null && tb !== null) return ta < tb ? -1 : ta > tb ? 1 : 0;
  if (a instanceof PyBytes && b instanceof PyBytes) return compareBytes(a.bytes, b.bytes);
  if (
    Array.isArray(a) &&
    Array.isArray(b) &&
    sequenceType(a) === sequenceType(b) &&
    rangeBounds(a) === undefined
  ) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (!eq(a[i], b[i])) return compareValues(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  throw typeError(
    `'${OP_NAMES[op]}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}

/** Python `needle in haystack`. */
function bytesContain(haystack: Uint8Array, needle: unknown): boolean {
  if (needle instanceof PyBytes) {
    const n = needle.bytes;
    outer: for (let i = 0; i + n.length <= haystack.length; i++) {
      for (let j = 0; j < n.length; j++) if (haystack[i + j] !== n[j]) continue outer;
      return true;
    }
    return false;
  }
  if (typeof needle === "boolean" || (typeof needle === "number" && Number.isInteger(needle))) {
    const byte = num(needle);
    if (byte < 0 || byte > 255) throw new TemplateRuntimeError("byte must be in range(0, 256)", "ValueError");
    return haystack.includes(byte);
  }
  throw typeError(`a bytes-like object is required, not '${typeName(needle)}'`);
}

export function contains(haystack: unknown, needle: unknown): boolean {
  const text = textOf(haystack);
  if (text !== null) {
    const n = textOf(needle);
    if (n === null) throw typeError(`'in <string>' requires string as left operand, not ${typeName(needle)}`);
    return text.includes(n);
  }
  if (Array.isArray(haystack)) {
    for (const item of haystack) if (eq(item, needle)) return true;
    return false;
  }
  if (haystack instanceof PyBytes) return bytesContain(haystack.bytes, needle);
  // Python consumes a generator up to the first match.
  if (haystack instanceof PyGenerator) {
    for (let item = haystack.next(); item !== null; item = haystack.next())
      if (eq(item.value, needle)) return true;
    return false;
  }
  if (isMapping(haystack)) return Object.hasOwn(haystack, hashableKey(needle));
  if (isUndefined(haystack)) return false;
  throw typeError(`argument of type '${typeName(haystack)}' is not iterable`);
}

/** Python's iter() for `for` loops and filters: a fresh or shared array of items. */
export function iterate(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyGenerator) return v.take();
  if (typeof v === "string") return Array.from(v);
  if (isMapping(v)) return dictPythonKeys(v);
  if (isUndefined(v)) return [];
  if (v instanceof Markup) return Array.from(v.text);
  if (v instanceof PyBytes) return Array.from(v.bytes);
  throw typeError(`'${typeName(v)}' object is not iterable`);
}

function percentFormat(format: string, args: unknown): string {
  const values = isTuple(args) ? args : [args];
  let index = 0;
  // The pieces are counted as they are made: the joined result is checked before it is allocated.
  let produced = format.length;
  const out = format.replace(
    /%(?:\(([^)]*)\))?([-+ #0]*)(\d+|\*)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])/g,
    (_m, key: string | undefined, flags: string, width: string | undefined, precision, conv: string) => {
      if (conv === "%") return "%";
      let value: unknown;
      if (key !== undefined) {
        if (!isMapping(args)) throw typeError("format requires a mapping");
        value = args[key];
      } else {
        if (index >= values.length) throw typeError("not enough arguments for format string");
        value = values[index++];
      }
      const piece = formatDirective(value, flags, width, precision, conv);
      produced += piece.length;
      checkSizeCap(produced);
      return piece;
    },
  );
  // Python only complains about unused arguments for tuples and non-sequence values.
  const sequenceLike = isMapping(args) || isUndefined(args) || (Array.isArray(args) && !isTuple(args));
  if (!sequenceLike && index < values.length) {
    throw typeError("not all arguments converted during string formatting");
  }
  return out;
}
