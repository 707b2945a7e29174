/**
 * Python values for snippets (JSON values, keyword arguments), written with the one Python quoting module
 * of @modelhub/tasks.
 */

import { isPythonIdentifier, pythonStringLiteral } from "@modelhub/tasks/quoting";
import { CodeExpr } from "./expr.js";

/** A Python literal for a JSON value, pretty-printed with 4-space indentation starting at `level`. */
export function pyValue(value: unknown, level = 0): string {
  if (value instanceof CodeExpr) return value.py;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "None";
  if (typeof value === "string") return pythonStringLiteral(value);
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
    if (item !== undefined) out += `\n${pad}${pythonStringLiteral(key)}: ${pyValue(item, level + 1)},`;
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
      if (!isPythonIdentifier(key)) throw new TypeError(`"${key}" cannot be a Python keyword argument.`);
      return `${pad}${key}=${pyValue(v, level)},`;
    })
    .join("\n");
}
