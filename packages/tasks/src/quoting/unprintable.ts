/**
 * Characters no generated literal carries raw, in any language: controls, format characters (zero-width
 * and bidirectional marks, which can hide or reorder text), private-use and unassigned code points, lone
 * surrogates, and the line and paragraph separators. Each is written as an escape instead.
 */
export const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** What a double-quoted string literal cannot hold raw: the quote, the backslash, and unprintable characters. */
const NEEDS_ESCAPE = /["\\\p{C}\p{Zl}\p{Zp}]/u;

export function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).padStart(width, "0");
}

/**
 * A double-quoted string literal of a C-like language (Python, JavaScript): quote, backslash, \n, \r and
 * \t escaped the way both write them, other unprintable characters by `escapeCodePoint`.
 */
export function doubleQuotedLiteral(value: string, escapeCodePoint: (codePoint: number) => string): string {
  // Most texts need no escape; skipping the walk: 10.6-11.2k -> 18.8-20.8k calls per CPU s (bench:snippets).
  // Printable ASCII is told apart without the regular expression: compiling its Unicode classes costs a
  // fresh process ~0.5 ms, a twentieth of the snippet generator's cold first call.
  if (isPlainAscii(value) || !NEEDS_ESCAPE.test(value)) return `"${value}"`;
  let out = '"';
  for (const ch of value) {
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (UNPRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0)!);
    else out += ch;
  }
  return `${out}"`;
}

/** Whether every character of `value` is printable ASCII other than the double quote and the backslash. */
function isPlainAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}
