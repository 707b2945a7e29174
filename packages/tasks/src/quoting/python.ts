import { hex, UNPRINTABLE } from "./unprintable.js";

/** What a Python string literal cannot hold raw: the quote, the backslash, and unprintable characters. */
const NEEDS_ESCAPE = /["\\\p{C}\p{Zl}\p{Zp}]/u;

/**
 * A double-quoted Python 3 string literal whose value is exactly `value`, on one line of printable
 * characters. Non-ASCII text is kept as is; the rest is escaped (`\n`, `\x07`, `\u200b`, `\U000e0001`).
 */
export function pythonStringLiteral(value: string): string {
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
      out += cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    } else out += ch;
  }
  return `${out}"`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** Whether `name` may be written as a bare Python identifier (a keyword argument, an imported name). */
export function isPythonIdentifier(name: string | undefined): name is string {
  return name !== undefined && IDENTIFIER.test(name) && !KEYWORDS.has(name);
}
