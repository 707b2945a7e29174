import { doubleQuotedLiteral, hex } from "./unprintable.js";

/**
 * A double-quoted JavaScript string literal whose value is exactly `value`, on one line of printable
 * characters (also valid TypeScript). Non-ASCII text is kept; the rest is escaped (`\n`, `\u2028`).
 */
export function jsStringLiteral(value: string): string {
  return doubleQuotedLiteral(value, (cp) => (cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\u{${cp.toString(16)}}`));
}
