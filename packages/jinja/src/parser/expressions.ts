import type { BinaryOperator, CallArgs, CompareOperator, Expr, Target } from "../ast/nodes.js";
import { pyFloat } from "../runtime/values.js";
import {
  current as cur,
  describe,
  expectName,
  expectOp,
  fail,
  isName,
  isOp,
  next,
  peek,
  skipName,
  skipOp,
} from "./cursor.js";

/**
 * Recursive-descent expression parser mirroring jinja2.parser.Parser's precedence levels. Like the cursor,
 * its state (set by `startExpressions`) is module state: one parse runs at a time.
 */

export interface NameRegistry {
  hasFilter(name: string): boolean;
  hasTest(name: string): boolean;
}

let registry: NameRegistry;
/** One set per macro being parsed, collecting the special names its body mentions. */
export const macroUses: Set<string>[] = [];

export function startExpressions(names: NameRegistry): void {
  registry = names;
  macroUses.length = 0;
}

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const PRIMARY_START = new Set(["name", "string", "integer", "float"]);
/** Precedence level of a binary operator, loosest first (jinja2's math1, concat, math2, pow); -1 if none. */
function binaryLevel(op: string): number {
  switch (op) {
    case "+":
    case "-":
      return 0;
    case "~":
      return 1;
    case "*":
    case "/":
    case "//":
    case "%":
      return 2;
    case "**":
      return 3;
    default:
      return -1;
  }
}
function noArgs(): CallArgs {
  return { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
}

export function parseExpression(withCondexpr = true): Expr {
  return withCondexpr ? parseCondexpr() : parseOr();
}

function parseCondexpr(): Expr {
  let expr = parseOr();
  while (skipName("if")) {
    const test = parseOr();
    const otherwise = skipName("else") ? parseCondexpr() : null;
    expr = { kind: "cond", test, whenTrue: expr, otherwise };
  }
  return expr;
}

function parseOr(): Expr {
  let left = parseAnd();
  while (skipName("or")) left = { kind: "or", left, right: parseAnd() };
  return left;
}

function parseAnd(): Expr {
  let left = parseNot();
  while (skipName("and")) left = { kind: "and", left, right: parseNot() };
  return left;
}

function parseNot(): Expr {
  if (skipName("not")) return { kind: "unary", op: "not", node: parseNot() };
  return parseCompare();
}

function parseCompare(): Expr {
  const first = parseBinary(0);
  const ops: [CompareOperator, Expr][] = [];
  for (;;) {
    const t = cur;
    if (t.type === "op" && COMPARE_OPS.has(t.value)) {
      next();
      ops.push([t.value as CompareOperator, parseBinary(0)]);
    } else if (skipName("in")) {
      ops.push(["in", parseBinary(0)]);
    } else if (isName("not") && peek().type === "name" && peek().value === "in") {
      next();
      next();
      ops.push(["notin", parseBinary(0)]);
    } else break;
  }
  return ops.length === 0 ? first : { kind: "compare", first, ops };
}

/**
 * Left-associative binary operators of precedence `minLevel` and tighter, by precedence climbing: one call
 * per operand instead of one per precedence level.
 */
function parseBinary(minLevel: number): Expr {
  let left = parseUnary();
  for (;;) {
    const level = cur.type === "op" ? binaryLevel(cur.value) : -1;
    if (level < minLevel) return left;
    const op = next().value as BinaryOperator;
    left = { kind: "binop", op, left, right: parseBinary(level + 1) };
  }
}

function parseUnary(withFilter = true): Expr {
  let node: Expr;
  if (isOp("-") || isOp("+")) {
    const op = next().value as "-" | "+";
    node = { kind: "unary", op, node: parseUnary(false) };
  } else {
    node = parsePrimary();
  }
  node = parsePostfix(node);
  return withFilter ? parseFilterExpr(node) : node;
}

function parsePrimary(): Expr {
  const t = cur;
  switch (t.type) {
    case "name":
      next();
      switch (t.value) {
        case "true":
        case "True":
          return { kind: "const", value: true };
        case "false":
        case "False":
          return { kind: "const", value: false };
        case "none":
        case "None":
          return { kind: "const", value: null };
      }
      if (t.value === "varargs" || t.value === "kwargs" || t.value === "caller") {
        for (const uses of macroUses) uses.add(t.value);
      }
      return { kind: "name", name: t.value };
    case "string": {
      let value = next().value;
      while (cur.type === "string") value += next().value;
      return { kind: "const", value };
    }
    case "integer":
    case "float":
      next();
      return { kind: "const", value: t.type === "float" ? pyFloat(Number(t.value)) : Number(t.value) };
    case "op":
      if (t.value === "(") {
        next();
        const node = parseTuple({ explicitParentheses: true });
        expectOp(")");
        return node;
      }
      if (t.value === "[" || t.value === "{") return parseListOrDict(t.value === "{");
  }
  return fail(`unexpected ${describe(t)}`);
}

export interface TupleOptions {
  /** Only primaries (assignment targets). */
  simplified?: boolean;
  withCondexpr?: boolean;
  /** Names that end the tuple (`in` of a for loop). */
  extraEnd?: string[];
  explicitParentheses?: boolean;
}

/** Comma-separated expressions; a single one without a comma is returned bare. */
export function parseTuple(opts: TupleOptions = {}): Expr {
  const items: Expr[] = [];
  let isTuple = false;
  for (;;) {
    if (items.length > 0) expectOp(",");
    if (isTupleEnd(opts.extraEnd)) break;
    items.push(opts.simplified ? parsePrimary() : parseExpression(opts.withCondexpr !== false));
    if (isOp(",")) isTuple = true;
    else break;
  }
  if (!isTuple) {
    if (items.length > 0) return items[0]!;
    if (!opts.explicitParentheses) fail(`Expected an expression, got ${describe(cur)}`, "expression");
  }
  return { kind: "tuple", items };
}

function isTupleEnd(extraEnd?: string[]): boolean {
  const t = cur;
  if (t.type === "var_end" || t.type === "block_end" || t.type === "eof") return true;
  if (t.type === "op" && t.value === ")") return true;
  return extraEnd !== undefined && t.type === "name" && extraEnd.includes(t.value);
}

/** `[a, b]` or `{k: v, ...}`, trailing comma allowed. */
function parseListOrDict(isDict: boolean): Expr {
  const close = isDict ? "}" : "]";
  next();
  const items: Expr[] = [];
  const pairs: [Expr, Expr][] = [];
  while (!isOp(close)) {
    if (items.length > 0 || pairs.length > 0) expectOp(",");
    if (isOp(close)) break;
    const item = parseExpression();
    if (isDict) {
      expectOp(":");
      pairs.push([item, parseExpression()]);
    } else items.push(item);
  }
  expectOp(close);
  return isDict ? { kind: "dict", pairs } : { kind: "list", items };
}

function parsePostfix(node: Expr): Expr {
  for (;;) {
    if (isOp(".") || isOp("[")) node = parseSubscript(node);
    else if (isOp("(")) node = { kind: "call", callee: node, ...parseCallArgs() };
    else return node;
  }
}

function parseFilterExpr(node: Expr): Expr {
  for (;;) {
    if (isOp("|")) node = parseFilter(node)!;
    else if (isName("is")) node = parseTest(node);
    else if (isOp("(")) node = { kind: "call", callee: node, ...parseCallArgs() };
    else return node;
  }
}

function parseSubscript(node: Expr): Expr {
  const t = next();
  if (t.value === ".") {
    const attr = next();
    if (attr.type === "name") return { kind: "getattr", obj: node, attr: attr.value };
    if (attr.type !== "integer") fail("expected name or number", "name or number", attr.pos);
    return { kind: "getitem", obj: node, key: { kind: "const", value: Number(attr.value) } };
  }
  const keys: Expr[] = [];
  while (!isOp("]")) {
    if (keys.length > 0) expectOp(",");
    keys.push(parseSubscribed(node));
  }
  expectOp("]");
  if (keys.length === 1) {
    const only = keys[0]!;
    if (only.kind === "slice") return only;
    return { kind: "getitem", obj: node, key: only };
  }
  return { kind: "getitem", obj: node, key: { kind: "tuple", items: keys } };
}

function atSubscriptEnd(): boolean {
  return isOp("]") || isOp(",");
}

/** One subscript: an expression or a `start:stop:step` slice (marked by kind "slice" on `obj`). */
function parseSubscribed(obj: Expr): Expr {
  let start: Expr | null = null;
  if (!isOp(":")) {
    const node = parseExpression();
    if (!isOp(":")) return node;
    start = node;
  }
  next();
  let stop: Expr | null = null;
  if (!isOp(":") && !atSubscriptEnd()) stop = parseExpression();
  let step: Expr | null = null;
  if (skipOp(":") && !atSubscriptEnd()) step = parseExpression();
  return { kind: "slice", obj, start, stop, step };
}

function ensureCallSyntax(ok: boolean): void {
  if (!ok) fail("invalid syntax for function call expression");
}

function parseCallArgs(): CallArgs {
  expectOp("(");
  const result = noArgs();
  let requireComma = false;
  while (!isOp(")")) {
    if (requireComma) {
      expectOp(",");
      if (isOp(")")) break;
    }
    if (skipOp("*")) {
      ensureCallSyntax(result.dynArgs === null && result.dynKwargs === null);
      result.dynArgs = parseExpression();
    } else if (skipOp("**")) {
      ensureCallSyntax(result.dynKwargs === null);
      result.dynKwargs = parseExpression();
    } else if (cur.type === "name" && peek().type === "op" && peek().value === "=") {
      ensureCallSyntax(result.dynKwargs === null);
      const key = next().value;
      next();
      result.kwargs.push([key, parseExpression()]);
    } else {
      ensureCallSyntax(result.dynArgs === null && result.dynKwargs === null && result.kwargs.length === 0);
      result.args.push(parseExpression());
    }
    requireComma = true;
  }
  expectOp(")");
  return result;
}

/** A filter or test name (`a.b` allowed, as in jinja2), failing unless the registry knows it. */
function registeredName(what: "filter" | "test"): string {
  const first = expectName();
  let name = first.value;
  while (skipOp(".")) name += `.${expectName().value}`;
  if (!(what === "filter" ? registry.hasFilter(name) : registry.hasTest(name))) {
    fail(`No ${what} named '${name}'.`, undefined, first.pos);
  }
  return name;
}

/** `| name(args)` chains; `node` null means "the block body" (filter blocks, set blocks). */
export function parseFilter(node: Expr | null, startInline = false): Expr | null {
  while (startInline || skipOp("|")) {
    startInline = false;
    const name = registeredName("filter");
    node = { kind: "filter", name, node, ...(isOp("(") ? parseCallArgs() : noArgs()) };
  }
  return node;
}

function parseTest(node: Expr): Expr {
  next();
  const negated = skipName("not");
  const name = registeredName("test");
  let args = noArgs();
  const t = cur;
  if (isOp("(")) {
    args = parseCallArgs();
  } else if (
    (PRIMARY_START.has(t.type) || (t.type === "op" && (t.value === "[" || t.value === "{"))) &&
    !(t.type === "name" && (t.value === "else" || t.value === "or" || t.value === "and"))
  ) {
    if (t.type === "name" && t.value === "is") fail("You cannot chain multiple tests with is");
    args.args.push(parsePostfix(parsePrimary()));
  }
  const test: Expr = { kind: "test", name, node, ...args };
  return negated ? { kind: "unary", op: "not", node: test } : test;
}

/** Assignment targets: a name, a tuple of names, or (for `set`) `namespace.attr`. */
export function parseAssignTarget(opts: { extraEnd?: string[]; withNamespace?: boolean } = {}): Target {
  if (opts.withNamespace && peek().type === "op" && peek().value === ".") {
    const name = expectName().value;
    next();
    return { kind: "nsref", name, attr: expectName().value };
  }
  const start = cur.pos;
  const expr = parseTuple({ simplified: true, ...(opts.extraEnd ? { extraEnd: opts.extraEnd } : {}) });
  return toTarget(expr, () => fail(`can't assign to '${expr.kind}'`, undefined, start));
}

function toTarget(expr: Expr, failure: () => never): Target {
  if (expr.kind === "name") return { kind: "name", name: expr.name };
  if (expr.kind === "tuple")
    return { kind: "tuple", items: expr.items.map((item) => toTarget(item, failure)) };
  return failure();
}
