import { TemplateRuntimeError } from "../errors.js";
import { compareValues } from "../runtime/operators.js";
import { formatFloat, formatInt } from "../runtime/printing.js";
import { chargeConversion, checkSizeCap, sizeCap } from "../runtime/state.js";
import {
  dictKeys,
  isMapping,
  isUndefined,
  Markup,
  PyFloat,
  pythonKey,
  rangeBounds,
  typeName,
} from "../runtime/values.js";

export interface JsonOptions {
  ensureAscii: boolean;
  /** null: compact one-line; a number of spaces or an indent string: pretty. */
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

// Most strings (keys, names, descriptions) need no escape: testing first skips building a new string.
const NEEDS_ESCAPE = /["\\\x00-\x1f]/;
const NEEDS_ESCAPE_ASCII = /["\\\x00-\x1f\x7f-\uffff]/;

/** json.dumps' string encoding (ensure_ascii off: only quotes, backslash and control characters escaped). */
export function jsonString(s: string, ensureAscii: boolean): string {
  if (!(ensureAscii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE).test(s)) return `"${s}"`;
  const re = ensureAscii ? /["\\\x00-\x1f\x7f-\uffff]/g : /["\\\x00-\x1f]/g;
  return `"${s.replace(re, (ch) => ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function jsonNumber(n: number, isFloat: boolean): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return isFloat ? formatFloat(n) : formatInt(n);
}

/** json.dumps' text for a dict key that is not a str: ints, floats, bools and None; TypeError otherwise. */
function jsonKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "boolean") return key ? "true" : "false";
  if (key === null) return "null";
  if (typeof key === "bigint") return formatInt(key);
  if (typeof key === "number") return jsonNumber(key, !Number.isInteger(key));
  if (key instanceof PyFloat) return jsonNumber(key.value, true);
  throw new TemplateRuntimeError(
    `keys must be str, int, float, bool or None, not ${typeName(key)}`,
    "TypeError",
  );
}

/** sort_keys: sorted(d.items()), so keys of types that do not order raise TypeError as in Python. */
function sortKeys(d: Record<string, unknown>, keys: string[]): string[] {
  if (!keys.some((k) => k.charCodeAt(0) === 0)) return keys.slice().sort();
  return keys.slice().sort((a, b) => compareValues(pythonKey(d, a), pythonKey(d, b)));
}

/**
 * Python's json.dumps over the template value model; within a render, bounded by its size cap while it is
 * built (a large indent is checked before it is repeated) and charged to its steps.
 */
export function toJson(value: unknown, opts: JsonOptions): string {
  const cap = sizeCap();
  const grown = (length: number) => {
    if (length > cap) checkSizeCap(length);
  };
  const indentBy = (level: number) => {
    grown(opts.indent!.length * level);
    return opts.indent!.repeat(level);
  };
  const write = (v: unknown, level: number): string => {
    if (typeof v === "number") return jsonNumber(v, !Number.isInteger(v));
    if (typeof v === "string") return jsonString(v, opts.ensureAscii);
    if (typeof v === "boolean") return v ? "true" : "false";
    if (v === null) return "null";
    if (typeof v === "bigint") return formatInt(v);
    if (v instanceof PyFloat) return jsonNumber(v.value, true);
    if (v instanceof Markup) return jsonString(v.text, opts.ensureAscii);
    const nl = opts.indent === null ? "" : `\n${indentBy(level + 1)}`;
    const close = opts.indent === null ? "" : `\n${indentBy(level)}`;
    // Parts joined once (far less garbage than a growing string), their total checked as they come.
    if (Array.isArray(v) && rangeBounds(v) === undefined) {
      if (v.length === 0) return "[]";
      const parts: string[] = new Array(v.length);
      let length = 0;
      for (let i = 0; i < v.length; i++) {
        parts[i] = nl + write(v[i], level + 1);
        length += parts[i]!.length + opts.itemSeparator.length;
        grown(length);
      }
      return `[${parts.join(opts.itemSeparator)}${close}]`;
    }
    if (isMapping(v)) {
      let keys = dictKeys(v);
      if (keys.length === 0) return "{}";
      if (opts.sortKeys) keys = sortKeys(v, keys);
      const parts: string[] = new Array(keys.length);
      let length = 0;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const name = jsonString(k.charCodeAt(0) === 0 ? jsonKey(pythonKey(v, k)) : k, opts.ensureAscii);
        parts[i] = `${nl}${name}${opts.keySeparator}${write(v[k], level + 1)}`;
        length += parts[i]!.length + opts.itemSeparator.length;
        grown(length);
      }
      return `{${parts.join(opts.itemSeparator)}${close}}`;
    }
    const type = isUndefined(v) ? "Undefined" : typeName(v);
    throw new TemplateRuntimeError(`Object of type ${type} is not JSON serializable`, "TypeError");
  };
  const text = write(value, 0);
  chargeConversion(text.length);
  return text;
}
