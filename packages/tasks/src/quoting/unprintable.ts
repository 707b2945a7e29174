/**
 * Characters no generated literal carries raw, in any language: controls, format characters (zero-width
 * and bidirectional marks, which can hide or reorder text), private-use and unassigned code points, lone
 * surrogates, and the line and paragraph separators. Each is written as an escape instead.
 */
export const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

export function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).padStart(width, "0");
}
