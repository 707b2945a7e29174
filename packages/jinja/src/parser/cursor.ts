import { lineAt, syntaxError } from "../lexer/source.js";
import type { Token } from "../lexer/token.js";

/**
 * The token cursor of the parse in progress, with Jinja2-style error reporting.
 *
 * Parsing is synchronous and never re-enters itself, so the cursor is module state reset by `startCursor`
 * rather than an object threaded through every call: plain functions and variables that a bundler can
 * shorten, where methods and properties keep their full names in a minified bundle.
 */
let tokens: Token[] = [];
let index = 0;
let last = 0;
/** The token under the cursor. */
export let current: Token;
/** Names of the blocks currently open, innermost last (for "which block is still open"). */
export const openBlocks: string[] = [];

export function startCursor(list: Token[]): void {
  tokens = list;
  index = 0;
  last = list.length - 1;
  current = list[0]!;
  openBlocks.length = 0;
}

/** The token `offset` places ahead (the final eof token past the end). */
export function peek(offset = 1): Token {
  return tokens[Math.min(index + offset, last)]!;
}

/** Moves past the current token and returns it (stays on the final eof token). */
export function next(): Token {
  const token = current;
  if (index < last) current = tokens[++index]!;
  return token;
}

export function isOp(value: string): boolean {
  return current.type === "op" && current.value === value;
}

export function isName(value: string): boolean {
  return current.type === "name" && current.value === value;
}

export function skipOp(value: string): boolean {
  if (!isOp(value)) return false;
  next();
  return true;
}

export function skipName(value: string): boolean {
  if (!isName(value)) return false;
  next();
  return true;
}

export function expectOp(value: string): Token {
  if (!isOp(value)) fail(`expected token '${value}', got ${describe(current)}`, `'${value}'`);
  return next();
}

export function expectName(value?: string): Token {
  if (current.type !== "name" || (value !== undefined && current.value !== value)) {
    const what = value === undefined ? "name" : `'${value}'`;
    fail(`expected ${what}, got ${describe(current)}`, what);
  }
  return next();
}

export function expectType(type: Token["type"], what: string): Token {
  if (current.type !== type) fail(`expected ${what}, got ${describe(current)}`, what);
  return next();
}

export function fail(reason: string, expected?: string, pos = current.pos): never {
  const openBlock = openBlocks[openBlocks.length - 1];
  throw syntaxError(reason, pos, {
    ...(expected !== undefined ? { expected } : {}),
    ...(openBlock !== undefined ? { openBlock } : {}),
  });
}

export function lineOf(token: Token): number {
  return lineAt(token.pos);
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
