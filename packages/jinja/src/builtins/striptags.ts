import { HTML5_ENTITIES, INVALID_CHARREFS, INVALID_CODEPOINTS } from "./html-entities.js";

/**
 * markupsafe's Markup.striptags (the `striptags` filter), in linear time. markupsafe removes the first
 * `<!--`...`-->` again and again, then the first `<`...`>`, each time searching the whole string from
 * the start; done literally that is quadratic (`'<!--' * 200000` took 34 s). The same result in one pass:
 * the text kept so far never holds a complete opening mark (it would have been the first one), so a new
 * one can only start in its last few characters, where the next kept text joins it.
 */
export function stripTags(text: string): string {
  const withoutComments = removeSpans(text, "<!--", "-->");
  const withoutTags = removeSpans(withoutComments, "<", ">");
  // Python's str.split(): its whitespace includes \x1c-\x1f and \x85.
  const words = withoutTags.split(/[\s\x1c-\x1f\x85]+/).filter(Boolean);
  return htmlUnescape(words.join(" "));
}

/**
 * Removes, as markupsafe does, the first `open`...`close` span (the close searched from the open's start)
 * until no span is left or an open mark has no close after it.
 */
function removeSpans(text: string, open: string, close: string): string {
  // kept[0..w) is the text kept so far; `text.slice(i)` is the text not yet looked at.
  const kept = new Uint16Array(text.length);
  let w = 0;
  let i = 0;
  // The character at position p of kept + text.slice(i).
  const at = (p: number) => (p < w ? kept[p]! : text.charCodeAt(i + p - w));
  const total = () => w + text.length - i;
  const matchesAt = (p: number, mark: string) => {
    if (p + mark.length > total()) return false;
    for (let k = 0; k < mark.length; k++) if (at(p + k) !== mark.charCodeAt(k)) return false;
    return true;
  };
  /** First position >= from of `mark` in kept + rest, looking into kept only where it may straddle. */
  const find = (mark: string, from: number) => {
    for (let p = Math.max(from, w - mark.length + 1, 0); p < w; p++) if (matchesAt(p, mark)) return p;
    const j = text.indexOf(mark, i + Math.max(0, from - w));
    return j < 0 ? -1 : w + (j - i);
  };
  for (;;) {
    const start = find(open, 0);
    if (start < 0) break;
    const end = find(close, start);
    if (end < 0) break;
    // Keep everything before `start`; continue after the close mark.
    const keptBefore = w;
    if (start >= w) for (let j = i; j < i + (start - keptBefore); j++) kept[w++] = text.charCodeAt(j);
    else w = start;
    i += end + close.length - keptBefore;
  }
  let out = "";
  const CHUNK = 8192;
  for (let p = 0; p < w; p += CHUNK) out += String.fromCharCode(...kept.subarray(p, Math.min(w, p + CHUNK)));
  return out + text.slice(i);
}

let entities: Map<string, string> | undefined;

/** HTML5_ENTITIES's front-coded records (scripts/make-html-entities.py) to name -> text, `;` included. */
function decodeEntities(): Map<string, string> {
  const table = new Map<string, string>();
  let previous = "";
  for (const record of HTML5_ENTITIES.split("~")) {
    let end = 1;
    while (record[end] !== " " && record[end] !== "!") end++;
    const name = previous.slice(0, record.charCodeAt(0) - 48) + record.slice(1, end);
    const value = record.slice(end + 1);
    table.set(`${name};`, value);
    if (record[end] === "!") table.set(name, value);
    previous = name;
  }
  return table;
}
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/g;

/** Python's html.unescape: every HTML5 named reference (longest prefix for legacy ones) and numeric one. */
export function htmlUnescape(s: string): string {
  if (!s.includes("&")) return s;
  entities ??= decodeEntities();
  const table = entities;
  return s.replace(CHARREF, (whole, ref: string) => {
    if (ref[0] === "#") {
      const hex = ref[1] === "x" || ref[1] === "X";
      const digits = ref.slice(hex ? 2 : 1).replace(/;$/, "");
      // Python's int() is exact: a long run of digits is simply out of range.
      const code = digits.length > 8 ? Number.POSITIVE_INFINITY : Number.parseInt(digits, hex ? 16 : 10);
      const mapped = INVALID_CHARREFS[String(code)];
      if (mapped !== undefined) return mapped;
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return "\uFFFD";
      if (INVALID_CODEPOINTS.some(([from, to]) => code >= from && code <= to)) return "";
      return String.fromCodePoint(code);
    }
    const exact = table.get(ref);
    if (exact !== undefined) return exact;
    for (let x = ref.length - 1; x > 1; x--) {
      const prefix = table.get(ref.slice(0, x));
      if (prefix !== undefined) return prefix + ref.slice(x);
    }
    return whole;
  });
}
