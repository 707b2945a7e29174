import { doubleQuotedLiteral, hex } from "./unprintable.js";

/**
 * A double-quoted Python 3 string literal whose value is exactly `value`, on one line of printable
 * characters. Non-ASCII text is kept as is; the rest is escaped (`\n`, `\x07`, `\u200b`, `\U000e0001`).
 */
export function pythonStringLiteral(value: string): string {
  return doubleQuotedLiteral(value, (cp) =>
    cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`,
  );
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
