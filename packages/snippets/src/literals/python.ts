/** Python source literals. Every value a snippet shows in Python goes through here. */

import { CodeExpr } from "./expr.js";

const PY_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** Characters pyString escapes: backslash, double quote, controls, line separators, lone surrogates. */
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/;

/** A double-quoted Python string literal that evaluates to exactly `text` (non-ASCII kept as is). */
export function pyString(text: string): string {
  // Most strings need no escape at all: one regular-expression test instead of a loop over characters.
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let out = '"';
  for (const char of text) {
    const escaped = PY_ESCAPES[char];
    if (escaped) {
      out += escaped;
      continue;
    }
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    // Line separators and lone surrogates cannot stand raw in UTF-8 source.
    else if (code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      out += `\\u${code.toString(16)}`;
    else out += char;
  }
  return `${out}"`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** Whether `name` can be written as a Python keyword argument. */
export function isPyIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !PY_KEYWORDS.has(name);
}

/** A Python literal for a JSON value, pretty-printed with 4-space indentation starting at `level`. */
export function pyValue(value: unknown, level = 0): string {
  if (value instanceof CodeExpr) return value.py;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "None";
  if (typeof value === "string") return pyString(value);
  const pad = "    ".repeat(level + 1);
  const closePad = "    ".repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = "[";
    for (const item of value) out += `\n${pad}${pyValue(item, level + 1)},`;
    return `${out}\n${closePad}]`;
  }
  // Plain loops rather than entries/filter/map/join: this runs for every value of every call.
  let out = "";
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item !== undefined) out += `\n${pad}${pyString(key)}: ${pyValue(item, level + 1)},`;
  }
  return out ? `{${out}\n${closePad}}` : "{}";
}

/**
 * Keyword arguments for a Python call, one per line at `level`: `name=value,`. Keys that are not Python
 * identifiers cannot be keyword arguments and are refused.
 */
export function pyKwargs(value: Record<string, unknown>, level = 1): string {
  const pad = "    ".repeat(level);
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => {
      if (!isPyIdentifier(key)) throw new TypeError(`"${key}" cannot be a Python keyword argument.`);
      return `${pad}${key}=${pyValue(v, level)},`;
    })
    .join("\n");
}
