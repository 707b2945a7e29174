import { TemplateSyntaxError } from "../errors.js";

/**
 * Python's `str.splitlines` line breaks: Jinja2 normalizes all of them to "\n" and drops one trailing
 * line break (keep_trailing_newline=False), so the engine does the same before lexing.
 */
const LINE_BREAKS = /\r\n|[\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

export function normalizeSource(source: string, keepTrailingNewline = false): string {
  const text = source.replace(LINE_BREAKS, "\n");
  return text.endsWith("\n") && !keepTrailingNewline ? text.slice(0, -1) : text;
}

/** The normalized source of one parse: line numbers and syntax errors with an excerpt of the line. */
export class SourceText {
  /** Offsets where lines start, computed on first use (most templates need them only for statement lines). */
  private lineStarts: number[] | null = null;

  constructor(readonly text: string) {}

  private starts(): number[] {
    if (this.lineStarts === null) {
      const text = this.text;
      const starts = [0];
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /** 1-based line of an offset. */
  lineAt(pos: number): number {
    const lines = this.starts();
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** A TemplateSyntaxError at an offset, with line, column and the source line with a caret. */
  syntaxError(
    reason: string,
    pos: number,
    extra: { expected?: string; openBlock?: string } = {},
  ): TemplateSyntaxError {
    const text = this.text;
    const line = this.lineAt(pos);
    const start = this.starts()[line - 1]!;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const column = pos - start + 1;
    const lineText = text.slice(start, end);
    const excerpt = `${line} | ${lineText}\n${" ".repeat(String(line).length)} | ${" ".repeat(Math.max(0, column - 1))}^`;
    return new TemplateSyntaxError(reason, { line, column, excerpt, ...extra });
  }
}
