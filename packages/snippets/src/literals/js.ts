/** JavaScript source literals. Every value a snippet shows in JavaScript goes through here. */

import { CodeExpr } from "./expr.js";

const LINE_SEPARATORS = /[\u2028\u2029]/;

/** A double-quoted JavaScript string literal that evaluates to exactly `text`. */
export function jsString(text: string): string {
  // JSON string syntax is valid JavaScript; U+2028/2029 are escaped for older parsers and readability.
  const json = JSON.stringify(text);
  return LINE_SEPARATORS.test(json) ? json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029") : json;
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
    return `[\n${value.map((item) => `${pad}${jsValue(item, level + 1)},`).join("\n")}\n${closePad}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${pad}${jsKey(k)}: ${jsValue(v, level + 1)},`).join("\n")}\n${closePad}}`;
}

/** The entries of an object literal without its braces, one per line at `level`: `key: value,`. */
export function jsEntries(value: Record<string, unknown>, level = 1): string {
  const pad = "    ".repeat(level);
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => `${pad}${jsKey(key)}: ${jsValue(v, level)},`)
    .join("\n");
}
