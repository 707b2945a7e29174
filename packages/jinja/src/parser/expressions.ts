import type { BinaryOperator, CallArgs, CompareOperator, Expr, Target } from "../ast/nodes.js";
import type { SourceText } from "../lexer/source.js";
import type { Token } from "../lexer/token.js";
import { MAX_STR_DIGITS } from "../runtime/integers.js";
import { normInt, pyFloat } from "../runtime/values.js";
import { Cursor, describe } from "./cursor.js";

export interface NameRegistry {
  hasFilter(name: string): boolean;
  hasTest(name: string): boolean;
}

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const PRIMARY_START = new Set(["name", "string", "integer", "float"]);

export interface TupleOptions {
  /** Only primaries (assignment targets). */
  simplified?: boolean;
  withCondexpr?: boolean;
  /** Names that end the tuple (`in` of a for loop). */
  extraEnd?: string[];
  explicitParentheses?: boolean;
}

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

function toTarget(expr: Expr, failure: () => never): Target {
  if (expr.kind === "name") return { kind: "name", name: expr.name };
  if (expr.kind === "tuple")
    return { kind: "tuple", items: expr.items.map((item) => toTarget(item, failure)) };
  return failure();
}

/** Recursive-descent expression parser mirroring jinja2.parser.Parser's precedence levels. */
export class ExpressionParser extends Cursor {
  /** One set per macro being parsed, collecting the special names its body mentions. */
  protected readonly macroUses: Set<string>[] = [];

  constructor(
    tokens: Token[],
    source: SourceText,
    private readonly registry: NameRegistry,
  ) {
    super(tokens, source);
  }

  parseExpression(withCondexpr = true): Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  parseCondexpr(): Expr {
    let expr = this.parseOr();
    while (this.skipName("if")) {
      const test = this.parseOr();
      const otherwise = this.skipName("else") ? this.parseCondexpr() : null;
      expr = { kind: "cond", test, whenTrue: expr, otherwise };
    }
    return expr;
  }

  parseOr(): Expr {
    let left = this.parseAnd();
    while (this.skipName("or")) left = { kind: "or", left, right: this.parseAnd() };
    return left;
  }

  parseAnd(): Expr {
    let left = this.parseNot();
    while (this.skipName("and")) left = { kind: "and", left, right: this.parseNot() };
    return left;
  }

  parseNot(): Expr {
    if (this.skipName("not")) return { kind: "unary", op: "not", node: this.parseNot() };
    return this.parseCompare();
  }

  parseCompare(): Expr {
    const first = this.parseBinary(0);
    const ops: [CompareOperator, Expr][] = [];
    for (;;) {
      const t = this.current;
      if (t.type === "op" && COMPARE_OPS.has(t.value)) {
        this.next();
        ops.push([t.value as CompareOperator, this.parseBinary(0)]);
      } else if (this.skipName("in")) {
        ops.push(["in", this.parseBinary(0)]);
      } else if (this.isName("not") && this.peek().type === "name" && this.peek().value === "in") {
        this.next();
        this.next();
        ops.push(["notin", this.parseBinary(0)]);
      } else break;
    }
    return ops.length === 0 ? first : { kind: "compare", first, ops };
  }

  /**
   * Left-associative binary operators of precedence `minLevel` and tighter, by precedence climbing: one call
   * per operand instead of one per precedence level.
   */
  parseBinary(minLevel: number): Expr {
    let left = this.parseUnary();
    for (;;) {
      const level = this.current.type === "op" ? binaryLevel(this.current.value) : -1;
      if (level < minLevel) return left;
      const op = this.next().value as BinaryOperator;
      left = { kind: "binop", op, left, right: this.parseBinary(level + 1) };
    }
  }

  parseUnary(withFilter = true): Expr {
    let node: Expr;
    if (this.isOp("-") || this.isOp("+")) {
      const op = this.next().value as "-" | "+";
      node = { kind: "unary", op, node: this.parseUnary(false) };
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    return withFilter ? this.parseFilterExpr(node) : node;
  }

  parsePrimary(): Expr {
    const t = this.current;
    switch (t.type) {
      case "name":
        this.next();
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
          for (const uses of this.macroUses) uses.add(t.value);
        }
        return { kind: "name", name: t.value };
      case "string": {
        let value = this.next().value;
        while (this.current.type === "string") value += this.next().value;
        return { kind: "const", value };
      }
      case "integer":
      case "float":
        this.next();
        return { kind: "const", value: t.type === "float" ? pyFloat(Number(t.value)) : this.integer(t) };
      case "op":
        if (t.value === "(") {
          this.next();
          const node = this.parseTuple({ explicitParentheses: true });
          this.expectOp(")");
          return node;
        }
        if (t.value === "[" || t.value === "{") return this.parseListOrDict(t.value === "{");
    }
    return this.fail(`unexpected ${describe(t)}`);
  }

  /** Comma-separated expressions; a single one without a comma is returned bare. */
  parseTuple(opts: TupleOptions = {}): Expr {
    const items: Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) this.expectOp(",");
      if (this.isTupleEnd(opts.extraEnd)) break;
      items.push(opts.simplified ? this.parsePrimary() : this.parseExpression(opts.withCondexpr !== false));
      if (this.isOp(",")) isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (items.length > 0) return items[0]!;
      if (!opts.explicitParentheses)
        this.fail(`Expected an expression, got ${describe(this.current)}`, "expression");
    }
    return { kind: "tuple", items };
  }

  isTupleEnd(extraEnd?: string[]): boolean {
    const t = this.current;
    if (t.type === "var_end" || t.type === "block_end" || t.type === "eof") return true;
    if (t.type === "op" && t.value === ")") return true;
    return extraEnd !== undefined && t.type === "name" && extraEnd.includes(t.value);
  }

  /** `[a, b]` or `{k: v, ...}`, trailing comma allowed. */
  parseListOrDict(isDict: boolean): Expr {
    const close = isDict ? "}" : "]";
    this.next();
    const items: Expr[] = [];
    const pairs: [Expr, Expr][] = [];
    while (!this.isOp(close)) {
      if (items.length > 0 || pairs.length > 0) this.expectOp(",");
      if (this.isOp(close)) break;
      const item = this.parseExpression();
      if (isDict) {
        this.expectOp(":");
        pairs.push([item, this.parseExpression()]);
      } else items.push(item);
    }
    this.expectOp(close);
    return isDict ? { kind: "dict", pairs } : { kind: "list", items };
  }

  parsePostfix(node: Expr): Expr {
    for (;;) {
      if (this.isOp(".") || this.isOp("[")) node = this.parseSubscript(node);
      else if (this.isOp("(")) node = { kind: "call", callee: node, ...this.parseCallArgs() };
      else return node;
    }
  }

  parseFilterExpr(node: Expr): Expr {
    for (;;) {
      if (this.isOp("|")) node = this.parseFilter(node)!;
      else if (this.isName("is")) node = this.parseTest(node);
      else if (this.isOp("(")) node = { kind: "call", callee: node, ...this.parseCallArgs() };
      else return node;
    }
  }

  /** An integer literal: exact past 2**53 (a bigint), as Python's ints are. */
  integer(t: Token): number | bigint {
    const n = Number(t.value);
    if (Number.isSafeInteger(n)) return n;
    // Python refuses to read more than 4,300 decimal digits; a hex/octal/binary literal is bounded by bits.
    if (t.value.length > MAX_STR_DIGITS)
      this.fail(`integer literal of ${t.value.length} digits is too long`, undefined, t.pos);
    return normInt(BigInt(t.value));
  }

  parseSubscript(node: Expr): Expr {
    const t = this.next();
    if (t.value === ".") {
      const attr = this.next();
      if (attr.type === "name") return { kind: "getattr", obj: node, attr: attr.value };
      if (attr.type !== "integer") this.fail("expected name or number", "name or number", attr.pos);
      return { kind: "getitem", obj: node, key: { kind: "const", value: Number(attr.value) } };
    }
    const keys: Expr[] = [];
    while (!this.isOp("]")) {
      if (keys.length > 0) this.expectOp(",");
      keys.push(this.parseSubscribed(node));
    }
    this.expectOp("]");
    if (keys.length === 1) {
      const only = keys[0]!;
      if (only.kind === "slice") return only;
      return { kind: "getitem", obj: node, key: only };
    }
    return { kind: "getitem", obj: node, key: { kind: "tuple", items: keys } };
  }

  atSubscriptEnd(): boolean {
    return this.isOp("]") || this.isOp(",");
  }

  /** One subscript: an expression or a `start:stop:step` slice (marked by kind "slice" on `obj`). */
  parseSubscribed(obj: Expr): Expr {
    let start: Expr | null = null;
    if (!this.isOp(":")) {
      const node = this.parseExpression();
      if (!this.isOp(":")) return node;
      start = node;
    }
    this.next();
    let stop: Expr | null = null;
    if (!this.isOp(":") && !this.atSubscriptEnd()) stop = this.parseExpression();
    let step: Expr | null = null;
    if (this.skipOp(":") && !this.atSubscriptEnd()) step = this.parseExpression();
    return { kind: "slice", obj, start, stop, step };
  }

  ensureCallSyntax(ok: boolean): void {
    if (!ok) this.fail("invalid syntax for function call expression");
  }

  parseCallArgs(): CallArgs {
    this.expectOp("(");
    const result = noArgs();
    let requireComma = false;
    while (!this.isOp(")")) {
      if (requireComma) {
        this.expectOp(",");
        if (this.isOp(")")) break;
      }
      if (this.skipOp("*")) {
        this.ensureCallSyntax(result.dynArgs === null && result.dynKwargs === null);
        result.dynArgs = this.parseExpression();
      } else if (this.skipOp("**")) {
        this.ensureCallSyntax(result.dynKwargs === null);
        result.dynKwargs = this.parseExpression();
      } else if (this.current.type === "name" && this.peek().type === "op" && this.peek().value === "=") {
        this.ensureCallSyntax(result.dynKwargs === null);
        const key = this.next().value;
        this.next();
        result.kwargs.push([key, this.parseExpression()]);
      } else {
        this.ensureCallSyntax(
          result.dynArgs === null && result.dynKwargs === null && result.kwargs.length === 0,
        );
        result.args.push(this.parseExpression());
      }
      requireComma = true;
    }
    this.expectOp(")");
    return result;
  }

  /** A filter or test name (`a.b` allowed, as in jinja2), failing unless the this.registry knows it. */
  registeredName(what: "filter" | "test"): string {
    const first = this.expectName();
    let name = first.value;
    while (this.skipOp(".")) name += `.${this.expectName().value}`;
    if (!(what === "filter" ? this.registry.hasFilter(name) : this.registry.hasTest(name))) {
      this.fail(`No ${what} named '${name}'.`, undefined, first.pos);
    }
    return name;
  }

  /** `| name(args)` chains; `node` null means "the block body" (filter blocks, set blocks). */
  parseFilter(node: Expr | null, startInline = false): Expr | null {
    while (startInline || this.skipOp("|")) {
      startInline = false;
      const name = this.registeredName("filter");
      node = { kind: "filter", name, node, ...(this.isOp("(") ? this.parseCallArgs() : noArgs()) };
    }
    return node;
  }

  parseTest(node: Expr): Expr {
    this.next();
    const negated = this.skipName("not");
    const name = this.registeredName("test");
    let args = noArgs();
    const t = this.current;
    if (this.isOp("(")) {
      args = this.parseCallArgs();
    } else if (
      (PRIMARY_START.has(t.type) || (t.type === "op" && (t.value === "[" || t.value === "{"))) &&
      !(t.type === "name" && (t.value === "else" || t.value === "or" || t.value === "and"))
    ) {
      if (t.type === "name" && t.value === "is") this.fail("You cannot chain multiple tests with is");
      args.args.push(this.parsePostfix(this.parsePrimary()));
    }
    const test: Expr = { kind: "test", name, node, ...args };
    return negated ? { kind: "unary", op: "not", node: test } : test;
  }

  /** Assignment targets: a name, a tuple of names, or (for `set`) `namespace.attr`. */
  parseAssignTarget(opts: { extraEnd?: string[]; withNamespace?: boolean } = {}): Target {
    if (opts.withNamespace && this.peek().type === "op" && this.peek().value === ".") {
      const name = this.expectName().value;
      this.next();
      return { kind: "nsref", name, attr: this.expectName().value };
    }
    const start = this.current.pos;
    const expr = this.parseTuple({ simplified: true, ...(opts.extraEnd ? { extraEnd: opts.extraEnd } : {}) });
    return toTarget(expr, () => this.fail(`can't assign to '${expr.kind}'`, undefined, start));
  }
}
