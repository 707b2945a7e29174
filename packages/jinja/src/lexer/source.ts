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

/** Maps offsets to 1-based line/column and builds error excerpts. */
export class SourceMap {
  private lineStarts: number[] | null = null;
  constructor(readonly text: string) {}

  private starts(): number[] {
    if (this.lineStarts === null) {
      const starts = [0];
      for (let i = this.text.indexOf("\n"); i >= 0; i = this.text.indexOf("\n", i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  lineOf(pos: number): number {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  error(
    reason: string,
    pos: number,
    extra: { expected?: string; openBlock?: string } = {},
  ): TemplateSyntaxError {
    const line = this.lineOf(pos);
    const start = this.starts()[line - 1]!;
    let end = this.text.indexOf("\n", start);
    if (end < 0) end = this.text.length;
    const column = pos - start + 1;
    const lineText = this.text.slice(start, end);
    const excerpt = `${line} | ${lineText}\n${" ".repeat(String(line).length)} | ${" ".repeat(Math.max(0, column - 1))}^`;
    return new TemplateSyntaxError(reason, { line, column, excerpt, ...extra });
  }
}
