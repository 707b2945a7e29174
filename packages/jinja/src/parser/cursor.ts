import type { SourceText } from "../lexer/source.js";
import type { Token } from "../lexer/token.js";

/** The token cursor of one parse, with Jinja2-style error reporting; the parsers extend it. */
export class Cursor {
  private index = 0;
  private readonly last: number;
  /** The token under the cursor. */
  current: Token;
  /** Names of the blocks currently open, innermost last (for "which block is still open"). */
  readonly openBlocks: string[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly source: SourceText,
  ) {
    this.last = tokens.length - 1;
    this.current = tokens[0]!;
  }

  /** The token `offset` places ahead (the final eof token past the end). */
  peek(offset = 1): Token {
    return this.tokens[Math.min(this.index + offset, this.last)]!;
  }

  /** Moves past the current token and returns it (stays on the final eof token). */
  next(): Token {
    const token = this.current;
    if (this.index < this.last) this.current = this.tokens[++this.index]!;
    return token;
  }

  isOp(value: string): boolean {
    return this.current.type === "op" && this.current.value === value;
  }

  isName(value: string): boolean {
    return this.current.type === "name" && this.current.value === value;
  }

  skipOp(value: string): boolean {
    if (!this.isOp(value)) return false;
    this.next();
    return true;
  }

  skipName(value: string): boolean {
    if (!this.isName(value)) return false;
    this.next();
    return true;
  }

  expectOp(value: string): Token {
    if (!this.isOp(value))
      this.fail(`expected token '${value}', got ${describe(this.current)}`, `'${value}'`);
    return this.next();
  }

  expectName(value?: string): Token {
    const t = this.current;
    if (t.type !== "name" || (value !== undefined && t.value !== value)) {
      const what = value === undefined ? "name" : `'${value}'`;
      this.fail(`expected ${what}, got ${describe(t)}`, what);
    }
    return this.next();
  }

  expectType(type: Token["type"], what: string): Token {
    if (this.current.type !== type) this.fail(`expected ${what}, got ${describe(this.current)}`, what);
    return this.next();
  }

  fail(reason: string, expected?: string, pos = this.current.pos): never {
    const openBlock = this.openBlocks[this.openBlocks.length - 1];
    throw this.source.syntaxError(reason, pos, {
      ...(expected !== undefined ? { expected } : {}),
      ...(openBlock !== undefined ? { openBlock } : {}),
    });
  }

  lineOf(token: Token): number {
    return this.source.lineAt(token.pos);
  }
}

const TOKEN_DESCRIPTIONS: Partial<Record<Token["type"], string>> = {
  eof: "end of template",
  block_end: "end of statement block",
  var_end: "end of print statement",
  string: "string",
  integer: "number",
  float: "number",
};

export function describe(token: Token): string {
  return TOKEN_DESCRIPTIONS[token.type] ?? `'${token.value}'`;
}
