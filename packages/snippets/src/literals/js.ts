/**
 * JavaScript values for snippets (object literals, entries), written with the one JavaScript quoting module
 * of @modelhub/tasks.
 */

import { jsStringLiteral } from "@modelhub/tasks/quoting";
import { CodeExpr } from "./expr.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function jsKey(key: string): string {
  return IDENTIFIER.test(key) ? key : jsStringLiteral(key);
}

/** A JavaScript literal for a JSON value, pretty-printed with 4-space indentation starting at `level`. */
export function jsValue(value: unknown, level = 0): string {
  if (value instanceof CodeExpr) return value.js;
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "string") return jsStringLiteral(value);
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
