import { lazyRegExp } from "../runtime/lazy-regexp.js";
import { checkPadding } from "../runtime/limits.js";
import { checkLength, eq, failIfUndefined, iterate, typeError } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import { checkSizeCap } from "../runtime/state.js";
import {
  codePoints,
  dictKeys,
  dictPythonKeys,
  dictSetKey,
  dictUpdate,
  hashableKey,
  isMapping,
  isTuple,
  Markup,
  makeTuple,
  makeView,
  newDict,
  pythonKey,
  typeName,
} from "../runtime/values.js";
import { arg, type Method, pyIndex, table, valueError } from "./args.js";
import { encode } from "./codecs.js";
import { TITLE_EXCEPTIONS_JSON } from "./title-case.js";

const text = (self: unknown): string => (self instanceof Markup ? self.text : (self as string));

const PY_WHITESPACE =
  " \t\n\r\v\f\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function charsArg(v: unknown, method: string): string {
  if (v === null || v === undefined) return PY_WHITESPACE;
  if (typeof v !== "string") throw typeError(`${method} arg must be None or str`);
  return v;
}

function strip(s: string, chars: string, left: boolean, right: boolean): string {
  let start = 0;
  let end = s.length;
  if (left) while (start < end && chars.includes(s[start]!)) start++;
  if (right) while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

function strArg(v: unknown, what: string): string {
  if (typeof v === "string") return v;
  if (v instanceof Markup) return v.text;
  throw typeError(`${what} must be str, not ${typeName(v)}`);
}

/** An optional integer argument (None or absent: the default). */
function intArg(v: unknown, dflt: number): number {
  return v === undefined || v === null ? dflt : pyIndex(v);
}

/**
 * str.split()/rsplit() without a separator: the words between runs of whitespace, at most `maxsplit`
 * splits; the unsplit remainder keeps its inner and outer spacing on the far side, as in Python.
 */
function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const words = Array.from(s.matchAll(/[^\s\x1c-\x1f\x85]+/g));
  const texts = words.map((w) => w[0]);
  if (maxsplit < 0 || words.length <= maxsplit) return texts;
  if (fromRight) {
    const split = words.length - maxsplit;
    const last = words[split - 1]!;
    return [s.slice(0, last.index + last[0].length), ...texts.slice(split)];
  }
  return [...texts.slice(0, maxsplit), s.slice(words[maxsplit]!.index)];
}

function split(s: string, sepArg: unknown, maxArg: unknown, fromRight: boolean): string[] {
  const maxsplit = intArg(maxArg, -1);
  if (sepArg === null || sepArg === undefined) return splitWhitespace(s, maxsplit, fromRight);
  const sep = strArg(sepArg, "sep");
  if (sep === "") throw valueError("empty separator");
  const parts = s.split(sep);
  if (maxsplit < 0 || parts.length <= maxsplit + 1) return parts;
  if (fromRight) {
    const at = parts.length - maxsplit;
    return [parts.slice(0, at).join(sep), ...parts.slice(at)];
  }
  return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
}

/**
 * The `s[start:end]` a search method looks in (Python's ADJUST_INDICES over code points): its text, and
 * its bounds, which may cross (start > end) when the arguments do.
 */
function searchWindow(
  s: string,
  startArg: unknown,
  endArg: unknown,
): [window: string, start: number, end: number] {
  const chars = codePoints(s);
  const len = chars.length;
  let end = intArg(endArg, len);
  end = end > len ? len : end < 0 ? Math.max(0, end + len) : end;
  let start = intArg(startArg, 0);
  if (start < 0) start = Math.max(0, start + len);
  return [typeof chars === "string" ? s.slice(start, end) : chars.slice(start, end).join(""), start, end];
}

const codePointLength = (s: string): number => codePoints(s).length;

function affixTest(self: unknown, args: unknown[], ends: boolean): boolean {
  const [window, start, end] = searchWindow(text(self), args[1], args[2]);
  const affixes = args[0];
  const list = isTuple(affixes) ? affixes : [affixes];
  if (!isTuple(affixes) && typeof affixes !== "string" && !(affixes instanceof Markup)) {
    throw typeError(
      `${ends ? "endswith" : "startswith"} first arg must be str or a tuple of str, not ${typeName(affixes)}`,
    );
  }
  return list.some((a) => {
    const t = strArg(a, "affix");
    return end - start >= codePointLength(t) && (ends ? window.endsWith(t) : window.startsWith(t));
  });
}

function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

let titleExceptions: Record<string, string> | undefined;

/** Title case of one character, as Python's str.title/capitalize use it (ß -> Ss, ǆ -> ǅ, ŉ -> ʼN). */
function titleChar(ch: string): string {
  titleExceptions ??= JSON.parse(TITLE_EXCEPTIONS_JSON) as Record<string, string>;
  const exception = titleExceptions[ch];
  if (exception !== undefined) return exception;
  const [first = "", ...rest] = ch.toUpperCase();
  return first + rest.join("").toLowerCase();
}

export function titleCase(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    if (isCased(ch)) {
      out += prevCased ? ch.toLowerCase() : titleChar(ch);
      prevCased = true;
    } else {
      out += ch;
      prevCased = false;
    }
  }
  return out;
}

export function capitalize(s: string): string {
  if (s === "") return s;
  const first = String.fromCodePoint(s.codePointAt(0)!);
  return titleChar(first) + s.slice(first.length).toLowerCase();
}

/**
 * Python's str.replace: the first `count` occurrences (all when negative); "" matches between code points.
 * The result's length is known from the number of matches, and checked before the result is built.
 */
export function replace(s: string, old: string, rep: string, count: number): string {
  if (count === 0) return s;
  if (old === "") {
    const chars = Array.from(s);
    const n = count < 0 ? chars.length + 1 : Math.min(count, chars.length + 1);
    checkSizeCap(s.length + n * rep.length);
    let out = "";
    for (let i = 0; i < chars.length; i++) out += (i < n ? rep : "") + chars[i];
    return n > chars.length ? out + rep : out;
  }
  let matches = 0;
  for (let i = s.indexOf(old); i >= 0 && (count < 0 || matches < count); i = s.indexOf(old, i + old.length))
    matches++;
  checkSizeCap(s.length + matches * (rep.length - old.length));
  if (count < 0 || matches < count) return s.split(old).join(rep);
  let out = "";
  let from = 0;
  for (let k = 0; k < matches; k++) {
    const i = s.indexOf(old, from);
    out += s.slice(from, i) + rep;
    from = i + old.length;
  }
  return out + s.slice(from);
}

function findIn(self: unknown, args: unknown[], fromRight: boolean): number {
  const sub = strArg(args[0], "substring");
  const [window, start, end] = searchWindow(text(self), args[1], args[2]);
  if (end - start < codePointLength(sub)) return -1;
  const i = fromRight ? window.lastIndexOf(sub) : window.indexOf(sub);
  return i < 0 ? -1 : start + codePointLength(window.slice(0, i));
}

function pad(s: string, width: unknown, fill: unknown, mode: "center" | "left" | "right"): string {
  const w = intArg(width, 0);
  checkPadding(w);
  const f = fill === undefined ? " " : strArg(fill, "fill character");
  const len = Array.from(s).length;
  if (w <= len) return s;
  const total = w - len;
  if (mode === "left") return s + f.repeat(total);
  if (mode === "right") return f.repeat(total) + s;
  // Python's centering puts the extra character on the left when the string length is odd.
  const left = Math.floor(total / 2) + (total & w & 1);
  return f.repeat(left) + s + f.repeat(total - left);
}

const isAll = (re: () => RegExp) => (self: unknown) => {
  const s = text(self);
  return s.length > 0 && re().test(s);
};

const SPACE_ONLY = /^[\s\x1c-\x1f\x85]+$/;
/** Python str.islower() and friends: whether a string has a cased letter of a kind (built on first use). */
export const HAS_LOWER = lazyRegExp(String.raw`\p{Ll}`, "u");
export const HAS_UPPER_OR_TITLE = lazyRegExp(String.raw`\p{Lu}|\p{Lt}`, "u");
export const HAS_LOWER_OR_TITLE = lazyRegExp(String.raw`\p{Ll}|\p{Lt}`, "u");
export const HAS_UPPER = lazyRegExp(String.raw`\p{Lu}`, "u");

/** Python str.splitlines() (the `indent` filter uses it without the method table). */
export function splitLines(str: string, keepends: boolean): string[] {
  const out: string[] = [];
  const re = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
  let last = 0;
  for (let m = re.exec(str); m !== null; m = re.exec(str)) {
    out.push(str.slice(last, keepends ? m.index + m[0].length : m.index));
    last = m.index + m[0].length;
  }
  if (last < str.length) out.push(str.slice(last));
  return out;
}

const IDENTIFIER = lazyRegExp(String.raw`^[\p{XID_Start}_][\p{XID_Continue}]*$`, "u");
const NON_PRINTABLE = lazyRegExp(String.raw`[^\P{C}]|[^\P{Z} ]`, "u");

/** str.maketrans(x[, y[, z]]): a dict from code points (as keys) to code points, strings or None. */
function makeTranslation(args: unknown[]): Record<string, unknown> {
  const table = newDict();
  if (args.length === 1) {
    const map = args[0];
    if (!isMapping(map)) throw typeError("if you give only one argument to maketrans it must be a dict");
    for (const stored of dictKeys(map)) {
      const key = pythonKey(map, stored);
      if (typeof key === "string") {
        const chars = Array.from(key);
        if (chars.length !== 1) throw valueError("string keys in translate table must be of length 1");
        dictSetKey(table, key.codePointAt(0), map[stored]);
      } else if (typeof key === "number" || typeof key === "bigint" || typeof key === "boolean") {
        dictSetKey(table, key, map[stored]);
      } else throw typeError("keys in translate table must be strings or integers");
    }
    return table;
  }
  const from = Array.from(strArg(args[0], "maketrans() argument 1"));
  const to = Array.from(strArg(args[1], "maketrans() argument 2"));
  if (from.length !== to.length) throw valueError("the first two maketrans arguments must have equal length");
  from.forEach((ch, i) => {
    dictSetKey(table, ch.codePointAt(0), to[i]!.codePointAt(0));
  });
  if (args.length > 2) {
    for (const ch of strArg(args[2], "maketrans() argument 3")) dictSetKey(table, ch.codePointAt(0), null);
  }
  return table;
}

/** str.translate(table): each character looked up by code point; None deletes, a number is a code point. */
function translate(s: string, table: unknown): string {
  let out = "";
  for (const ch of s) {
    const key = hashableKey(ch.codePointAt(0));
    const mapped = isMapping(table) && Object.hasOwn(table, key) ? table[key] : undefined;
    if (mapped === undefined) out += ch;
    else if (mapped === null) continue;
    else if (typeof mapped === "number") out += String.fromCodePoint(mapped);
    else if (typeof mapped === "string") {
      checkSizeCap(out.length + mapped.length);
      out += mapped;
    } else throw typeError("character mapping must return integer, None or str");
  }
  return out;
}

let strMethodTable: Record<string, Method> | undefined;

/**
 * Python's str methods, by name, but `format` and `format_map` (their fields read attributes: sandbox.ts
 * adds them). Built on first use rather than at module load (~0.2 ms in a fresh
 * process): templates that call no str method, such as the generated snippets', never pay for it.
 */
export function strMethods(): Record<string, Method> {
  strMethodTable ??= createStrMethods();
  return strMethodTable;
}

const createStrMethods = (): Record<string, Method> =>
  table<Method>({
    strip: (s, a) => strip(text(s), charsArg(a[0], "strip"), true, true),
    lstrip: (s, a) => strip(text(s), charsArg(a[0], "lstrip"), true, false),
    rstrip: (s, a) => strip(text(s), charsArg(a[0], "rstrip"), false, true),
    split: (s, a, k) => split(text(s), arg(a, k, 0, "sep"), arg(a, k, 1, "maxsplit"), false),
    rsplit: (s, a, k) => split(text(s), arg(a, k, 0, "sep"), arg(a, k, 1, "maxsplit"), true),
    splitlines: (s, a, k) => splitLines(text(s), Boolean(arg(a, k, 0, "keepends", false))),
    startswith: (s, a) => affixTest(s, a, false),
    endswith: (s, a) => affixTest(s, a, true),
    upper: (s) => text(s).toUpperCase(),
    lower: (s) => text(s).toLowerCase(),
    // Full case folding maps ß to ss (toLowerCase keeps it): upper-casing first applies those expansions.
    casefold: (s) => text(s).toUpperCase().toLowerCase(),
    swapcase: (s) =>
      Array.from(text(s))
        .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
        .join(""),
    title: (s) => titleCase(text(s)),
    capitalize: (s) => capitalize(text(s)),
    replace: (s, a, k) =>
      replace(
        text(s),
        strArg(arg(a, k, 0, "old"), "replace() argument 1"),
        strArg(arg(a, k, 1, "new"), "replace() argument 2"),
        intArg(arg(a, k, 2, "count"), -1),
      ),
    find: (s, a) => findIn(s, a, false),
    rfind: (s, a) => findIn(s, a, true),
    index: (s, a) => {
      const i = findIn(s, a, false);
      if (i < 0) throw valueError("substring not found");
      return i;
    },
    rindex: (s, a) => {
      const i = findIn(s, a, true);
      if (i < 0) throw valueError("substring not found");
      return i;
    },
    count: (s, a) => {
      const sub = strArg(a[0], "substring");
      const [window, start, end] = searchWindow(text(s), a[1], a[2]);
      if (end - start < codePointLength(sub)) return 0;
      return sub === "" ? end - start + 1 : window.split(sub).length - 1;
    },
    join: (s, a) => {
      const items = iterate(a[0]);
      const sep = text(s);
      let out = "";
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (typeof item !== "string" && !(item instanceof Markup)) {
          throw typeError(`sequence item ${i}: expected str instance, ${typeName(item)} found`);
        }
        const piece = pyStr(item);
        checkSizeCap(out.length + (i > 0 ? sep.length : 0) + piece.length);
        out += (i > 0 ? sep : "") + piece;
      }
      return out;
    },
    isdigit: isAll(lazyRegExp(String.raw`^[\p{Nd}]+$`, "u")),
    isdecimal: isAll(lazyRegExp(String.raw`^[\p{Nd}]+$`, "u")),
    isnumeric: isAll(lazyRegExp(String.raw`^[\p{N}]+$`, "u")),
    isalpha: isAll(lazyRegExp(String.raw`^[\p{L}]+$`, "u")),
    isalnum: isAll(lazyRegExp(String.raw`^[\p{L}\p{N}]+$`, "u")),
    isspace: isAll(() => SPACE_ONLY),
    isascii: (s) => /^[\x00-\x7f]*$/.test(text(s)),
    isidentifier: (s) => IDENTIFIER().test(text(s)),
    // Python's printable: everything but the "Other" and "Separator" categories, space excepted.
    isprintable: (s) => !NON_PRINTABLE().test(text(s)),
    encode: (s, a, k) => encode(text(s), arg(a, k, 0, "encoding", "utf-8"), arg(a, k, 1, "errors", "strict")),
    maketrans: (_s, a) => makeTranslation(a),
    translate: (s, a) => translate(text(s), a[0]),
    islower: (s) => {
      const str = text(s);
      return HAS_LOWER().test(str) && !HAS_UPPER_OR_TITLE().test(str);
    },
    isupper: (s) => {
      const str = text(s);
      return HAS_UPPER().test(str) && !HAS_LOWER_OR_TITLE().test(str);
    },
    // Python's rule: upper/title case letters only after uncased characters, lower case only after cased.
    istitle: (s) => {
      let cased = false;
      let previousCased = false;
      for (const ch of text(s)) {
        const upper = HAS_UPPER_OR_TITLE().test(ch);
        if (upper || HAS_LOWER().test(ch)) {
          if (upper === previousCased) return false;
          cased = previousCased = true;
        } else previousCased = false;
      }
      return cased;
    },
    center: (s, a) => pad(text(s), a[0], a[1], "center"),
    ljust: (s, a) => pad(text(s), a[0], a[1], "left"),
    rjust: (s, a) => pad(text(s), a[0], a[1], "right"),
    zfill: (s, a) => {
      const str = text(s);
      const w = intArg(a[0], 0);
      checkPadding(w);
      const len = codePointLength(str);
      if (len >= w) return str;
      const sign = str[0] === "-" || str[0] === "+" ? str[0] : "";
      return sign + "0".repeat(w - len) + str.slice(sign.length);
    },
    partition: (s, a) => {
      const str = text(s);
      const sep = strArg(a[0], "sep");
      if (sep === "") throw valueError("empty separator");
      const i = str.indexOf(sep);
      return makeTuple(i < 0 ? [str, "", ""] : [str.slice(0, i), sep, str.slice(i + sep.length)]);
    },
    rpartition: (s, a) => {
      const str = text(s);
      const sep = strArg(a[0], "sep");
      if (sep === "") throw valueError("empty separator");
      const i = str.lastIndexOf(sep);
      return makeTuple(i < 0 ? ["", "", str] : [str.slice(0, i), sep, str.slice(i + sep.length)]);
    },
    removeprefix: (s, a) => {
      const str = text(s);
      const p = strArg(a[0], "prefix");
      return p && str.startsWith(p) ? str.slice(p.length) : str;
    },
    removesuffix: (s, a) => {
      const str = text(s);
      const p = strArg(a[0], "suffix");
      return p && str.endsWith(p) ? str.slice(0, -p.length) : str;
    },
    expandtabs: (s, a, _k, st) => {
      const size = intArg(a[0], 8);
      checkPadding(size);
      // A tab moves to the next multiple of `size` columns; a line break starts a new line.
      let out = "";
      let column = 0;
      for (const ch of text(s)) {
        if (ch === "\t") {
          const spaces = size > 0 ? size - (column % size) : 0;
          out += " ".repeat(spaces);
          column += spaces;
          checkLength(out.length, st.limits);
        } else {
          out += ch;
          column = ch === "\n" || ch === "\r" ? 0 : column + 1;
        }
      }
      return out;
    },
  });

export const LIST_METHODS: Record<string, Method> = table<Method>({
  index: (self: unknown[], a) => {
    const i = self.findIndex((x) => eq(x, a[0]));
    if (i < 0) throw valueError(`${pyStr(a[0])} is not in list`);
    return i;
  },
  count: (self: unknown[], a) => self.filter((x) => eq(x, a[0])).length,
  copy: (self: unknown[]) => self.slice(),
});

export const DICT_METHODS: Record<string, Method> = table<Method>({
  items: (self: Record<string, unknown>) =>
    makeView(
      dictKeys(self).map((k) => makeTuple([pythonKey(self, k), self[k]])),
      "dict_items",
    ),
  keys: (self: Record<string, unknown>) => makeView(dictPythonKeys(self), "dict_keys"),
  values: (self: Record<string, unknown>) =>
    makeView(
      dictKeys(self).map((k) => self[k]),
      "dict_values",
    ),
  get: (self: Record<string, unknown>, a) => {
    failIfUndefined(a[0]);
    const key = hashableKey(a[0]);
    if (Object.hasOwn(self, key)) return self[key];
    return a.length > 1 ? a[1] : null;
  },
  copy: (self: Record<string, unknown>) => dictUpdate(newDict(), self),
  // A classmethod: `{}.fromkeys(...)` and `dict.fromkeys(...)` make a new dict, ignoring the receiver.
  fromkeys: (_self: Record<string, unknown>, a, _k, st) => {
    const keys = iterate(a[0]);
    st.checkSize(keys.length);
    const out = newDict();
    for (const key of keys) dictSetKey(out, key, a.length > 1 ? a[1] : null);
    return out;
  },
});

/** Methods that mutate their receiver: ImmutableSandboxedEnvironment refuses them. */
export const UNSAFE_METHODS = new Set([
  "append",
  "clear",
  "extend",
  "insert",
  "pop",
  "remove",
  "reverse",
  "sort",
  "popitem",
  "setdefault",
  "update",
  "add",
  "discard",
]);
