import type { SourceMap } from "../lexer/source.js";
import type { Token } from "../lexer/token.js";

/** Cursor over the token list with Jinja2-style error reporting. */
export class TokenStream {
  private index = 0;
  /** Names of the blocks currently open, innermost last (for "which block is still open"). */
  readonly openBlocks: string[] = [];

  constructor(
    private readonly tokens: Token[],
    readonly map: SourceMap,
  ) {}

  get current(): Token {
    return this.tokens[this.index]!;
  }

  look(offset = 1): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.tokens[this.index]!;
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  isOp(value: string): boolean {
    const t = this.current;
    return t.type === "op" && t.value === value;
  }

  isName(value: string): boolean {
    const t = this.current;
    return t.type === "name" && t.value === value;
  }

  skipOp(value: string): boolean {
    if (this.isOp(value)) {
      this.index++;
      return true;
    }
    return false;
  }

  skipName(value: string): boolean {
    if (this.isName(value)) {
      this.index++;
      return true;
    }
    return false;
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
    throw this.map.error(reason, pos, {
      ...(expected !== undefined ? { expected } : {}),
      ...(openBlock !== undefined ? { openBlock } : {}),
    });
  }

  lineOf(token: Token): number {
    return this.map.lineOf(token.pos);
  }
}

export function describe(token: Token): string {
  switch (token.type) {
    case "eof":
      return "end of template";
    case "block_end":
      return "end of statement block";
    case "var_end":
      return "end of print statement";
    case "string":
      return "string";
    case "integer":
    case "float":
      return "number";
    default:
      return `'${token.value}'`;
  }
}
