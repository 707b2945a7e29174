/** JavaScript source literals. Every value a snippet shows in JavaScript goes through here. */

import { CodeExpr } from "./expr.js";

/** Characters JSON.stringify (or this function) escapes: backslash, quote, controls, separators, surrogates. */
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** A double-quoted JavaScript string literal that evaluates to exactly `text`. */
export function jsString(text: string): string {
  // JSON string syntax is valid JavaScript; U+2028/2029 are escaped for older parsers and readability.
  // Most strings need no escape at all: one regular-expression test instead of a stringify and two replaces.
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function jsKey(key: string): string {
  return IDENTIFIER.test(key) ? key : jsString(key);
}

/** A JavaScript literal for a JSON value, pretty-printed with 4-space indentation starting at `level`. */
export function jsValue(value: unknown, level = 0): string {
  if (value instanceof CodeExpr) return value.js;
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "string") return jsString(value);
  const pad = "    ".repeat(level + 1);
  const closePad = "    ".repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = "[";
    for (const item of value) out += `\n${pad}${jsValue(item, level + 1)},`;
    return `${out}\n${closePad}]`;
  }
  // Plain loops rather than entries/filter/map/join: this runs for every value of every call.
  let out = "";
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item !== undefined) out += `\n${pad}${jsKey(key)}: ${jsValue(item, level + 1)},`;
  }
  return out ? `{${out}\n${closePad}}` : "{}";
}

/** The entries of an object literal without its braces, one per line at `level`: `key: value,`. */
export function jsEntries(value: Record<string, unknown>, level = 1): string {
  const pad = "    ".repeat(level);
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => `${pad}${jsKey(key)}: ${jsValue(v, level)},`)
    .join("\n");
}
