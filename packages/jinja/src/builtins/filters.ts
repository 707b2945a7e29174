import { TemplateRuntimeError } from "../errors.js";
import { checkStrDigits, intToFloat } from "../runtime/integers.js";
import { lazyRegExp } from "../runtime/lazy-regexp.js";
import { checkPadding } from "../runtime/limits.js";
import { escapeHtml } from "../runtime/markup.js";
import {
  failIfUndefined,
  iterate,
  mod,
  mul as multiply,
  pow,
  div as trueDivide,
  typeError,
} from "../runtime/operators.js";
import { toFixed } from "../runtime/percent-format.js";
import { pformat } from "../runtime/pretty.js";
import { formatInt, pyRepr, pyStr } from "../runtime/printing.js";
import { checkSizeCap } from "../runtime/state.js";
import {
  codePoints,
  dictKeys,
  isMapping,
  isUndefined,
  type Kwargs,
  Markup,
  makeTuple,
  normInt,
  num,
  PyBytes,
  PyFloat,
  PyGenerator,
  pyFloat,
  pythonKey,
  sequenceType,
  truthy,
  typeName,
  Undefined,
} from "../runtime/values.js";
import { arg, type FilterFn, table } from "./args.js";
import {
  batch,
  dictsort,
  groupby,
  minMax,
  sliceFilter,
  sortFilter,
  sum,
  unique,
} from "./collection-filters.js";
import { capitalize, splitLines, strMethods } from "./methods.js";
import { getPythonAttr } from "./sandbox.js";
import { attrGetter } from "./sorting.js";
import { stripTags } from "./striptags.js";

const WORD = lazyRegExp(String.raw`[\p{L}\p{N}_]+`, "gu");

import { type JsonOptions, toJson } from "./tojson.js";

const str = (v: unknown): string => (typeof v === "string" ? v : pyStr(v));

function length(v: unknown): number {
  if (typeof v === "string") return codePoints(v).length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyBytes) return v.bytes.length;
  if (isMapping(v)) return Object.keys(v).length;
  if (isUndefined(v)) return 0;
  if (v instanceof Markup) return codePoints(v.text).length;
  throw typeError(`object of type '${typeName(v)}' has no len()`);
}

/** Python's int(float): exact (a bigint past 2**53); OverflowError/ValueError for inf/nan, as Python. */
function truncFloat(f: number): number | bigint {
  if (!Number.isFinite(f)) {
    if (Number.isNaN(f)) throw new TemplateRuntimeError("cannot convert float NaN to integer", "ValueError");
    throw new TemplateRuntimeError("cannot convert float infinity to integer", "OverflowError");
  }
  const t = Math.trunc(f) + 0;
  return Number.isSafeInteger(t) ? t : normInt(BigInt(t));
}

/** int(digits, base) of text already checked to be digits of that base; exact past 2**53. */
function parseIntText(sign: string, digits: string, base: number): number | bigint {
  const n = Number.parseInt(digits, base);
  if (Number.isSafeInteger(n)) return sign === "-" ? -n : n;
  let big: bigint;
  if (base === 16 || base === 8 || base === 2) big = BigInt(`0${{ 16: "x", 8: "o", 2: "b" }[base]}${digits}`);
  else {
    // Python's 4,300-digit limit holds for every base that is not a power of two.
    checkStrDigits(digits.length);
    if (base === 10) big = BigInt(digits);
    else {
      big = 0n;
      const b = BigInt(base);
      for (const ch of digits.toLowerCase()) big = big * b + BigInt(Number.parseInt(ch, base));
    }
  }
  return normInt(sign === "-" ? -big : big);
}

function toInt(v: unknown, dflt: unknown, base: number): unknown {
  failIfUndefined(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return v;
  // jinja2's do_int catches TypeError and ValueError from int(value): int(inf) is an OverflowError.
  if (typeof v === "number" || v instanceof PyFloat) {
    const f = num(v);
    return Number.isNaN(f) ? dflt : truncFloat(f);
  }
  if (typeof v === "string" || v instanceof Markup) {
    const s = str(v).trim().replace(/_/g, "");
    const prefixed = /^([-+]?)0([xob])([0-9a-f]+)$/i.exec(s);
    if (prefixed && (base === 16 || base === 8 || base === 2 || base === 0)) {
      return parseIntText(prefixed[1]!, prefixed[3]!, { x: 16, o: 8, b: 2 }[prefixed[2]!.toLowerCase()]!);
    }
    const digits = base === 10 ? /^([-+]?)(\d+)$/.exec(s) : /^([-+]?)([0-9a-z]+)$/i.exec(s);
    if (digits !== null && !Number.isNaN(Number.parseInt(digits[2]!, base))) {
      const valid = [...digits[2]!.toLowerCase()].every((ch) => Number.parseInt(ch, 36) < base);
      if (valid) return parseIntText(digits[1]!, digits[2]!, base);
    }
    // The fallback int(float(text)) catches OverflowError too: "inf" gives the default.
    const f = parseFloatStrict(s);
    if (f !== null && Number.isFinite(f)) return truncFloat(f);
  }
  return dflt;
}

function parseFloatStrict(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(t)) return Number(t);
  if (/^[-+]?(inf|infinity)$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[-+]?nan$/.test(t)) return Number.NaN;
  return null;
}

function toFloat(v: unknown, dflt: unknown): unknown {
  failIfUndefined(v);
  if (typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat) return pyFloat(num(v));
  if (typeof v === "bigint") return pyFloat(intToFloat(v));
  if (typeof v === "string" || v instanceof Markup) {
    const f = parseFloatStrict(str(v).replace(/_/g, ""));
    if (f !== null) return pyFloat(f);
  }
  return dflt;
}

/** Python's round(x, n): correctly rounded on the exact binary value, exact ties to even. */
function pyRound(x: number, digits: number): number {
  const a = Math.abs(x);
  if (!Number.isFinite(x) || a >= 1e21) return x;
  if (digits < 0) {
    const m = 10 ** -digits;
    const q = a / m;
    const r = Math.abs(q - Math.trunc(q)) === 0.5 ? 2 * Math.round(q / 2) : Math.round(q);
    return Math.sign(x) * r * m;
  }
  const exact = a.toFixed(Math.min(100, digits + 25));
  const dot = exact.indexOf(".");
  const truncated = digits === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + digits);
  const tail = exact.slice(dot + 1 + digits);
  let r = Number(a.toFixed(digits));
  if (/^50*$/.test(tail) && Number(truncated[truncated.length - 1]) % 2 === 0) r = Number(truncated);
  return x < 0 ? -r : r;
}

function doRound(v: unknown, args: unknown[], k: Kwargs | null): unknown {
  const precision = num(arg(args, k, 0, "precision", 0) as number);
  const method = arg(args, k, 1, "method", "common");
  if (method !== "common" && method !== "ceil" && method !== "floor") {
    throw new TemplateRuntimeError("method must be common, ceil or floor");
  }
  failIfUndefined(v);
  if (typeof v === "bigint")
    return method === "common" ? roundBig(v, precision) : roundFloat(v, method, precision);
  if (typeof v !== "number" && typeof v !== "boolean" && !(v instanceof PyFloat)) {
    throw typeError(`type ${typeName(v)} doesn't define __round__ method`);
  }
  const x = num(v);
  const isInt = typeof v === "boolean" || (typeof v === "number" && Number.isInteger(v));
  if (method === "common") {
    const r = pyRound(x, precision);
    return isInt ? r : pyFloat(r);
  }
  return roundFloat(isInt ? x : v, method, precision);
}

/**
 * jinja2's ceil/floor rounding: math.ceil(value * 10**precision) / 10**precision, a float. For an int and
 * a precision >= 0 that is int arithmetic (exact) and one int true division, as in Python.
 */
function roundFloat(v: unknown, method: "ceil" | "floor", precision: number): unknown {
  if ((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint") {
    if (precision >= 0) {
      const m = pow(10, precision);
      return trueDivide(multiply(v, m, NO_SIZE_LIMIT), m);
    }
  }
  const x = typeof v === "bigint" ? intToFloat(v) : num(v as number | PyFloat);
  const m = 10 ** precision;
  // math.ceil/floor return ints: inf and nan cannot become one.
  truncFloat(x * m);
  return pyFloat(method === "ceil" ? Math.ceil(x * m) / m : Math.floor(x * m) / m);
}

/** Int arithmetic never builds text: no size limit applies. */
const NO_SIZE_LIMIT = { maxOutputLength: Number.POSITIVE_INFINITY };

/** round(int, n): the int itself for n >= 0, else rounded to 10**-n with ties to even, exactly. */
function roundBig(v: bigint, precision: number): number | bigint {
  if (precision >= 0) return v;
  const m = 10n ** BigInt(-precision);
  let q = v / m;
  const r = v % m;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > m || (twice === m && q % 2n !== 0n)) q += v < 0n ? -1n : 1n;
  return normInt(q * m);
}

function indent(value: unknown, args: unknown[], k: Kwargs | null): string {
  if (typeof value !== "string" && !(value instanceof Markup)) {
    throw typeError(`unsupported operand type(s) for +=: '${typeName(value)}' and 'str'`);
  }
  const width = arg(args, k, 0, "width", 4);
  const first = truthy(arg(args, k, 1, "first", false));
  const blank = truthy(arg(args, k, 2, "blank", false));
  if (typeof width !== "string") checkPadding(num(width as number));
  const pad = typeof width === "string" ? width : " ".repeat(Math.max(0, num(width as number)));
  const lines = splitLines(`${str(value)}\n`, false);
  // Every line but the first may gain the padding: checked before the lines are padded.
  checkSizeCap(str(value).length + 1 + lines.length * (pad.length + 1));
  let rv: string;
  if (blank) rv = lines.join(`\n${pad}`);
  else {
    rv = lines.shift() ?? "";
    if (lines.length > 0) rv += `\n${lines.map((l) => (l ? pad + l : l)).join("\n")}`;
  }
  return first ? pad + rv : rv;
}

function truncate(value: unknown, args: unknown[], k: Kwargs | null): unknown {
  const s = str(value);
  const len = num(arg(args, k, 0, "length", 255) as number);
  const killwords = truthy(arg(args, k, 1, "killwords", false));
  const end = str(arg(args, k, 2, "end", "..."));
  const leeway = num(arg(args, k, 3, "leeway", 5) as number);
  if (len < end.length) throw new TemplateRuntimeError(`expected length >= ${end.length}, got ${len}`);
  // jinja2 returns short values untouched (not even converted to str).
  if (length(value) <= len + leeway) return value;
  // Python slices code points: an astral character is never cut in half.
  const head = Array.from(s)
    .slice(0, len - end.length)
    .join("");
  if (killwords) return head + end;
  const cut = head.lastIndexOf(" ");
  return (cut < 0 ? head : head.slice(0, cut)) + end;
}

function escapeFilter(v: unknown): Markup {
  if (v instanceof Markup) return v;
  return new Markup(escapeHtml(str(v)));
}

const URL_SAFE = /[A-Za-z0-9_.\-~]/;

/** Python's urllib.parse.quote; the output (up to 3 characters a byte) is checked before it is built. */
function urlQuote(s: string, safe: string): string {
  const bytes = new TextEncoder().encode(s);
  let kept = 0;
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (URL_SAFE.test(c) || safe.includes(c)) kept++;
  }
  checkSizeCap(kept + 3 * (bytes.length - kept));
  let out = "";
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (URL_SAFE.test(c) || safe.includes(c)) out += c;
    else out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `parts.join(sep)`, its length checked against the size cap before the joined string is made. */
function joinChecked(parts: string[], sep: string): string {
  let total = parts.length > 0 ? sep.length * (parts.length - 1) : 0;
  for (const part of parts) total += part.length;
  checkSizeCap(total);
  return parts.join(sep);
}

function urlencode(v: unknown): string {
  const iterable = Array.isArray(v) || isMapping(v) || isUndefined(v);
  if (!iterable) return urlQuote(str(v), "/");
  const pairs = isMapping(v)
    ? dictKeys(v).map((key) => [pythonKey(v, key), v[key]])
    : iterate(v).map((p) => {
        const kv = iterate(p);
        if (kv.length !== 2) {
          throw new TemplateRuntimeError(
            kv.length < 2
              ? `not enough values to unpack (expected 2, got ${kv.length})`
              : "too many values to unpack (expected 2)",
            "ValueError",
          );
        }
        return kv;
      });
  const quote = (x: unknown) => urlQuote(str(x), "").replace(/%20/g, "+");
  return joinChecked(
    pairs.map(([key, val]) => `${quote(key)}=${quote(val)}`),
    "&",
  );
}

function tojson(value: unknown, args: unknown[], k: Kwargs | null): string {
  const ensureAscii = truthy(arg(args, k, 0, "ensure_ascii", false));
  const indentArg = arg(args, k, 1, "indent", null);
  const separators = arg(args, k, 2, "separators", null);
  const sortKeys = truthy(arg(args, k, 3, "sort_keys", false));
  let indentText: string | null = null;
  if (indentArg !== null && !isUndefined(indentArg)) {
    if (typeof indentArg !== "string") checkPadding(num(indentArg as number));
    indentText =
      typeof indentArg === "string" ? indentArg : " ".repeat(Math.max(0, num(indentArg as number)));
  }
  let itemSep = indentText === null ? ", " : ",";
  let keySep = ": ";
  if (separators !== null && !isUndefined(separators)) {
    const seps = iterate(separators);
    if (seps.length !== 2) throw new TemplateRuntimeError("separators must be a pair", "ValueError");
    itemSep = str(seps[0]);
    keySep = str(seps[1]);
  }
  const opts: JsonOptions = {
    ensureAscii,
    indent: indentText,
    itemSeparator: itemSep,
    keySeparator: keySep,
    sortKeys,
  };
  return toJson(value, opts);
}

/** jinja2's title filter: words start after whitespace, '-', '(', '{', '[' or '<' (unlike str.title). */
function jinjaTitle(s: string): string {
  return s
    .split(/([-\s\x1c-\x1f\x85({[<]+)/)
    .map(upperFirst)
    .join("");
}

/** jinja2's `item[0].upper() + item[1:].lower()` (upper case, not title case: ß -> SS). */
function upperFirst(item: string): string {
  const first = item === "" ? "" : String.fromCodePoint(item.codePointAt(0)!);
  return first.toUpperCase() + item.slice(first.length).toLowerCase();
}

function center(v: unknown, args: unknown[], k: Kwargs | null): string {
  return strMethods().center!(str(v), [arg(args, k, 0, "width", 80)], null, null as never) as string;
}

function first(v: unknown): unknown {
  if (v instanceof PyGenerator) {
    const item = v.next();
    return item === null ? new Undefined("No first item, sequence was empty.") : item.value;
  }
  const items = iterate(v);
  return items.length > 0 ? items[0] : new Undefined("No first item, sequence was empty.");
}

function last(v: unknown): unknown {
  if (v instanceof PyGenerator) throw typeError(`'${v.pyType}' object is not reversible`);
  const items = iterate(v);
  return items.length > 0 ? items[items.length - 1] : new Undefined("No last item, sequence was empty.");
}

function defaultFilter(v: unknown, args: unknown[], k: Kwargs | null): unknown {
  const dflt = arg(args, k, 0, "default_value", "");
  const boolean = truthy(arg(args, k, 1, "boolean", false));
  if (isUndefined(v) || (boolean && !truthy(v))) return dflt;
  return v;
}

/**
 * jinja2's do_reverse: a string reversed; else Python's reversed() (an iterator: `list_reverseiterator`
 * for a list, `reversed` for a tuple, bytes or undefined...), and for what reversed() refuses but can be
 * iterated (a generator) a reversed list.
 */
function reverse(v: unknown): unknown {
  if (typeof v === "string") return Array.from(v).reverse().join("");
  if (v instanceof Markup) return new Markup(Array.from(v.text).reverse().join(""));
  if (v instanceof PyGenerator) return v.take().slice().reverse();
  const type = reverseIteratorType(v);
  if (type === undefined) throw new TemplateRuntimeError("argument must be iterable", "FilterArgumentError");
  const items = iterate(v).slice().reverse();
  return new PyGenerator(items, "reversed", type);
}

function reverseIteratorType(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    const type = sequenceType(v);
    return type === "list" ? "list_reverseiterator" : type === "range" ? "range_iterator" : "reversed";
  }
  if (isMapping(v)) return "dict_reversekeyiterator";
  if (v instanceof PyBytes || isUndefined(v)) return "reversed";
  return undefined;
}

function abs(v: unknown): unknown {
  failIfUndefined(v);
  if (typeof v === "number") return Math.abs(v);
  if (typeof v === "bigint") return v < 0n ? -v : v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return pyFloat(Math.abs(v.value));
  throw typeError(`bad operand type for abs(): '${typeName(v)}'`);
}

function replaceFilter(v: unknown, args: unknown[], k: Kwargs | null): string {
  const count = arg(args, k, 2, "count", null);
  return strMethods().replace!(
    str(v),
    [str(arg(args, k, 0, "old")), str(arg(args, k, 1, "new")), count === null ? -1 : count],
    null,
    null as never,
  ) as string;
}

function wordwrap(v: unknown, args: unknown[], k: Kwargs | null): string {
  const width = num(arg(args, k, 0, "width", 79) as number);
  const breakLong = truthy(arg(args, k, 1, "break_long_words", true));
  const wrapstring = str(arg(args, k, 2, "wrapstring", "\n"));
  if (width <= 0) throw new TemplateRuntimeError(`invalid width ${width} (must be > 0)`, "ValueError");
  const paragraphs = str(v)
    .split("\n")
    .map((para) => {
      const lines: string[] = [];
      let line = "";
      for (let word of para.split(/\s+/).filter(Boolean)) {
        while (breakLong && word.length > width) {
          if (line) {
            lines.push(line);
            line = "";
          }
          lines.push(word.slice(0, width));
          word = word.slice(width);
        }
        if (!line) line = word;
        else if (line.length + 1 + word.length <= width) line += ` ${word}`;
        else {
          lines.push(line);
          line = word;
        }
      }
      if (line) lines.push(line);
      return joinChecked(lines, wrapstring);
    });
  return joinChecked(paragraphs, wrapstring);
}

function filesizeformat(v: unknown, args: unknown[], k: Kwargs | null): string {
  // jinja2 calls float(value): text that is not a number raises, as does anything but text and numbers.
  const converted = toFloat(v, null);
  if (converted === null) {
    if (typeof v === "string" || v instanceof Markup) {
      throw new TemplateRuntimeError(`could not convert string to float: ${pyRepr(str(v))}`, "ValueError");
    }
    throw typeError(`float() argument must be a string or a real number, not '${typeName(v)}'`);
  }
  const bytes = num(converted as number | PyFloat);
  const binary = truthy(arg(args, k, 0, "binary", false));
  const base = binary ? 1024 : 1000;
  const prefixes = binary
    ? ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    : ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
  if (bytes === 1) return "1 Byte";
  if (bytes < base) {
    if (bytes === -Infinity)
      throw new TemplateRuntimeError("cannot convert float infinity to integer", "OverflowError");
    return `${formatInt(Math.trunc(bytes))} Bytes`;
  }
  let unit = base;
  let i = 0;
  for (; i < prefixes.length; i++) {
    unit = base ** (i + 2);
    if (bytes < unit) break;
  }
  return `${toFixed((base * bytes) / unit, 1)} ${prefixes[Math.min(i, prefixes.length - 1)]}`;
}

/** Every filter but the ones that look other filters or tests up by name (builtins/registries.ts adds them). */
export const PLAIN_FILTERS: Record<string, FilterFn> = table<FilterFn>({
  abs,
  attr: (v, a) => getPythonAttr(v, str(a[0])),
  batch,
  capitalize: (v) => capitalize(str(v)),
  center,
  count: length,
  d: defaultFilter,
  default: defaultFilter,
  dictsort,
  e: escapeFilter,
  escape: escapeFilter,
  filesizeformat,
  first,
  float: (v, a, k) => toFloat(v, arg(a, k, 0, "default", new PyFloat(0))),
  forceescape: (v) => new Markup(escapeHtml(str(v))),
  format: (v, a, k) => mod(str(v), k !== null && a.length === 0 ? k : makeTuple(a)),
  groupby,
  indent,
  int: (v, a, k) => toInt(v, arg(a, k, 0, "default", 0), num(arg(a, k, 1, "base", 10) as number)),
  // A generator: a value that is no mapping fails when it is read, not here.
  items: (v) =>
    new PyGenerator(() => {
      if (isUndefined(v)) return [];
      if (!isMapping(v)) throw typeError(`Can only get item pairs from a mapping.`);
      return dictKeys(v).map((key) => makeTuple([pythonKey(v, key), v[key]]));
    }, "do_items"),
  join: (v, a, k) => {
    const sep = str(arg(a, k, 0, "d", ""));
    const attribute = arg(a, k, 1, "attribute", null);
    let items = iterate(v);
    if (attribute !== null) items = items.map(attrGetter(attribute));
    return joinChecked(items.map(str), sep);
  },
  last,
  length,
  list: (v) => iterate(v).slice(),
  lower: (v) => str(v).toLowerCase(),
  max: (v, a, k) => minMax(v, a, k, true),
  min: (v, a, k) => minMax(v, a, k, false),
  pprint: (v) => pformat(v),
  // Python's random.choice(seq): indexes the value, so a dict (string keys) raises KeyError.
  random: (v) => {
    if (v instanceof PyGenerator) throw typeError(`object of type '${v.pyType}' has no len()`);
    const items = iterate(v);
    const i = Math.floor(Math.random() * items.length);
    if (items.length === 0) return new Undefined("No random item, sequence was empty.");
    if (isMapping(v)) throw new TemplateRuntimeError(String(i), "KeyError");
    return items[i];
  },
  replace: replaceFilter,
  reverse,
  round: doRound,
  safe: (v) => new Markup(str(v)),
  slice: sliceFilter,
  sort: sortFilter,
  string: (v) => (v instanceof Markup ? v : str(v)),
  striptags: (v) => stripTags(str(v)),
  sum,
  title: (v) => jinjaTitle(str(v)),
  tojson,
  trim: (v, a, k) => strMethods().strip!(str(v), [arg(a, k, 0, "chars", null)], null, null as never),
  truncate,
  unique,
  upper: (v) => str(v).toUpperCase(),
  urlencode,
  wordcount: (v) => (str(v).match(WORD()) ?? []).length,
  wordwrap,
  xmlattr: (v) => {
    failIfUndefined(v);
    if (!isMapping(v)) {
      throw new TemplateRuntimeError(`'${typeName(v)}' object has no attribute 'items'`, "AttributeError");
    }
    const parts = dictKeys(v)
      .filter((key) => v[key] !== null && !isUndefined(v[key]))
      .map((key) => {
        // jinja2 checks each key with a regular expression: a key that is not a str is a TypeError.
        const name = pythonKey(v, key);
        if (typeof name !== "string")
          throw typeError(`expected string or bytes-like object, got '${typeName(name)}'`);
        return `${name}="${escapeHtml(str(v[key]))}"`;
      });
    return parts.length ? ` ${parts.join(" ")}` : "";
  },
});
