import { hex, UNPRINTABLE } from "./unprintable.js";

/** What a JavaScript string literal cannot hold raw: the quote, the backslash, and unprintable characters. */
const NEEDS_ESCAPE = /["\\\p{C}\p{Zl}\p{Zp}]/u;

/**
 * A double-quoted JavaScript string literal whose value is exactly `value`, on one line of printable
 * characters (also valid TypeScript). Non-ASCII text is kept; the rest is escaped (`\n`, `\u2028`).
 */
export function jsStringLiteral(value: string): string {
  // Most texts need no escape: one test instead of a walk over the characters.
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  let out = '"';
  for (const ch of value) {
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (UNPRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      out += cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\u{${cp.toString(16)}}`;
    } else out += ch;
  }
  return `${out}"`;
}
