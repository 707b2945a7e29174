import { dictKeys, dictSetKey, isMapping, isTuple, Markup, makeTuple, newDict, pythonKey } from "./values.js";

/**
 * markupsafe semantics for text marked safe (`|safe`, `|escape`): combining it with plain strings escapes
 * the plain side, and string methods on it return marked text. Jinja2 chat templates hit this through
 * `"..."|safe + value`, so the engine must escape exactly where Python does.
 */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&#34;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** markupsafe.escape for a string operand (marked text passes through). */
export function escapedText(v: string | Markup): string {
  return v instanceof Markup ? v.text : escapeHtml(v);
}

/** Escapes a value used as an argument of a Markup operation (`%`, `format`, methods). */
export function escapeArg(v: unknown): unknown {
  if (typeof v === "string") return new Markup(escapeHtml(v));
  if (isTuple(v)) return makeTuple(v.map(escapeArg));
  if (isMapping(v)) {
    const out = newDict();
    for (const key of dictKeys(v)) dictSetKey(out, pythonKey(v, key), escapeArg(v[key]));
    return out;
  }
  return v;
}

/** Marks string results (and the strings in list/tuple results) as safe, as Markup's methods return. */
export function markResult(v: unknown): unknown {
  if (typeof v === "string") return new Markup(v);
  if (Array.isArray(v)) {
    const marked = v.map((item) => (typeof item === "string" ? new Markup(item) : item));
    return isTuple(v) ? makeTuple(marked) : marked;
  }
  return v;
}

/** Markup methods that escape their arguments and return Markup. */
export const MARKUP_ESCAPING_METHODS = new Set([
  "capitalize",
  "title",
  "lower",
  "upper",
  "replace",
  "ljust",
  "rjust",
  "lstrip",
  "rstrip",
  "center",
  "strip",
  "expandtabs",
  "swapcase",
  "zfill",
  "partition",
  "rpartition",
  "format",
  "join",
  "removeprefix",
  "removesuffix",
  "casefold",
]);

/** Markup methods that return (lists of) Markup without escaping arguments. */
export const MARKUP_SPLITTING_METHODS = new Set(["split", "rsplit", "splitlines"]);
