import type { CallArgs, CompareOperator, Expr, Target } from "../ast/nodes.js";
import { pyFloat } from "../runtime/values.js";
import type { TokenStream } from "./token-stream.js";
import { describe } from "./token-stream.js";

export interface NameRegistry {
  hasFilter(name: string): boolean;
  hasTest(name: string): boolean;
}

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const PRIMARY_START = new Set(["name", "string", "integer", "float"]);

/** Recursive-descent expression parser mirroring jinja2.parser.Parser's precedence levels. */
export class ExpressionParser {
  /** One set per macro being parsed, collecting the special names its body mentions. */
  protected readonly macroUses: Set<string>[] = [];

  constructor(
    protected readonly stream: TokenStream,
    private readonly registry: NameRegistry,
  ) {}

  parseExpression(withCondexpr = true): Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  private parseCondexpr(): Expr {
    let expr = this.parseOr();
    while (this.stream.skipName("if")) {
      const test = this.parseOr();
      const otherwise = this.stream.skipName("else") ? this.parseCondexpr() : null;
      expr = { kind: "cond", test, whenTrue: expr, otherwise };
    }
    return expr;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.stream.skipName("or")) left = { kind: "or", left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.stream.skipName("and")) left = { kind: "and", left, right: this.parseNot() };
    return left;
  }

  private parseNot(): Expr {
    if (this.stream.skipName("not")) return { kind: "unary", op: "not", node: this.parseNot() };
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const first = this.parseMath1();
    const ops: [CompareOperator, Expr][] = [];
    const s = this.stream;
    for (;;) {
      const t = s.current;
      if (t.type === "op" && COMPARE_OPS.has(t.value)) {
        s.next();
        ops.push([t.value as CompareOperator, this.parseMath1()]);
      } else if (s.skipName("in")) {
        ops.push(["in", this.parseMath1()]);
      } else if (s.isName("not") && s.look().type === "name" && s.look().value === "in") {
        s.next();
        s.next();
        ops.push(["notin", this.parseMath1()]);
      } else break;
    }
    return ops.length === 0 ? first : { kind: "compare", first, ops };
  }

  private parseMath1(): Expr {
    let left = this.parseConcat();
    for (;;) {
      const t = this.stream.current;
      if (t.type !== "op" || (t.value !== "+" && t.value !== "-")) return left;
      this.stream.next();
      left = { kind: "binop", op: t.value, left, right: this.parseConcat() };
    }
  }

  private parseConcat(): Expr {
    let left = this.parseMath2();
    while (this.stream.skipOp("~")) left = { kind: "binop", op: "~", left, right: this.parseMath2() };
    return left;
  }

  private parseMath2(): Expr {
    let left = this.parsePow();
    for (;;) {
      const t = this.stream.current;
      if (t.type !== "op" || (t.value !== "*" && t.value !== "/" && t.value !== "//" && t.value !== "%")) {
        return left;
      }
      this.stream.next();
      left = { kind: "binop", op: t.value, left, right: this.parsePow() };
    }
  }

  private parsePow(): Expr {
    let left = this.parseUnary();
    while (this.stream.skipOp("**")) left = { kind: "binop", op: "**", left, right: this.parseUnary() };
    return left;
  }

  private parseUnary(withFilter = true): Expr {
    const s = this.stream;
    let node: Expr;
    if (s.isOp("-") || s.isOp("+")) {
      const op = s.next().value as "-" | "+";
      node = { kind: "unary", op, node: this.parseUnary(false) };
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    return withFilter ? this.parseFilterExpr(node) : node;
  }

  parsePrimary(): Expr {
    const s = this.stream;
    const t = s.current;
    switch (t.type) {
      case "name": {
        s.next();
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
          default:
            if (t.value === "varargs" || t.value === "kwargs" || t.value === "caller") {
              for (const uses of this.macroUses) uses.add(t.value);
            }
            return { kind: "name", name: t.value };
        }
      }
      case "string": {
        let value = s.next().value;
        while (s.current.type === "string") value += s.next().value;
        return { kind: "const", value };
      }
      case "integer":
        s.next();
        return { kind: "const", value: Number(t.value) };
      case "float":
        s.next();
        return { kind: "const", value: pyFloat(Number(t.value)) };
      case "op":
        if (t.value === "(") {
          s.next();
          const node = this.parseTuple({ explicitParentheses: true });
          s.expectOp(")");
          return node;
        }
        if (t.value === "[") return this.parseList();
        if (t.value === "{") return this.parseDict();
        break;
    }
    return s.fail(`unexpected ${describe(t)}`);
  }

  /** Comma-separated expressions; a single one without a comma is returned bare. */
  parseTuple(
    opts: {
      simplified?: boolean;
      withCondexpr?: boolean;
      extraEnd?: string[];
      explicitParentheses?: boolean;
    } = {},
  ): Expr {
    const s = this.stream;
    const parse = opts.simplified
      ? () => this.parsePrimary()
      : () => this.parseExpression(opts.withCondexpr !== false);
    const items: Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) s.expectOp(",");
      if (this.isTupleEnd(opts.extraEnd)) break;
      items.push(parse());
      if (s.isOp(",")) isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (items.length > 0) return items[0]!;
      if (!opts.explicitParentheses)
        s.fail(`Expected an expression, got ${describe(s.current)}`, "expression");
    }
    return { kind: "tuple", items };
  }

  private isTupleEnd(extraEnd?: string[]): boolean {
    const t = this.stream.current;
    if (t.type === "var_end" || t.type === "block_end" || t.type === "eof") return true;
    if (t.type === "op" && t.value === ")") return true;
    return extraEnd !== undefined && t.type === "name" && extraEnd.includes(t.value);
  }

  private parseList(): Expr {
    const s = this.stream;
    s.expectOp("[");
    const items: Expr[] = [];
    while (!s.isOp("]")) {
      if (items.length > 0) s.expectOp(",");
      if (s.isOp("]")) break;
      items.push(this.parseExpression());
    }
    s.expectOp("]");
    return { kind: "list", items };
  }

  private parseDict(): Expr {
    const s = this.stream;
    s.expectOp("{");
    const pairs: [Expr, Expr][] = [];
    while (!s.isOp("}")) {
      if (pairs.length > 0) s.expectOp(",");
      if (s.isOp("}")) break;
      const key = this.parseExpression();
      s.expectOp(":");
      pairs.push([key, this.parseExpression()]);
    }
    s.expectOp("}");
    return { kind: "dict", pairs };
  }

  private parsePostfix(node: Expr): Expr {
    const s = this.stream;
    for (;;) {
      if (s.isOp(".") || s.isOp("[")) node = this.parseSubscript(node);
      else if (s.isOp("(")) node = { kind: "call", callee: node, ...this.parseCallArgs() };
      else return node;
    }
  }

  private parseFilterExpr(node: Expr): Expr {
    const s = this.stream;
    for (;;) {
      if (s.isOp("|")) node = this.parseFilter(node)!;
      else if (s.isName("is")) node = this.parseTest(node);
      else if (s.isOp("(")) node = { kind: "call", callee: node, ...this.parseCallArgs() };
      else return node;
    }
  }

  private parseSubscript(node: Expr): Expr {
    const s = this.stream;
    const t = s.next();
    if (t.value === ".") {
      const attr = s.next();
      if (attr.type === "name") return { kind: "getattr", obj: node, attr: attr.value };
      if (attr.type !== "integer") s.fail("expected name or number", "name or number", attr.pos);
      return { kind: "getitem", obj: node, key: { kind: "const", value: Number(attr.value) } };
    }
    const keys: Expr[] = [];
    while (!s.isOp("]")) {
      if (keys.length > 0) s.expectOp(",");
      keys.push(this.parseSubscribed(node));
    }
    s.expectOp("]");
    if (keys.length === 1) {
      const only = keys[0]!;
      if (only.kind === "slice") return only;
      return { kind: "getitem", obj: node, key: only };
    }
    return { kind: "getitem", obj: node, key: { kind: "tuple", items: keys } };
  }

  /** One subscript: an expression or a `start:stop:step` slice (marked by kind "slice" on `obj`). */
  private parseSubscribed(obj: Expr): Expr {
    const s = this.stream;
    let start: Expr | null = null;
    if (!s.isOp(":")) {
      const node = this.parseExpression();
      if (!s.isOp(":")) return node;
      start = node;
    }
    s.next();
    const atEnd = () => s.isOp("]") || s.isOp(",");
    let stop: Expr | null = null;
    if (!s.isOp(":") && !atEnd()) stop = this.parseExpression();
    let step: Expr | null = null;
    if (s.skipOp(":") && !atEnd()) step = this.parseExpression();
    return { kind: "slice", obj, start, stop, step };
  }

  parseCallArgs(): CallArgs {
    const s = this.stream;
    s.expectOp("(");
    const result: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    const ensure = (ok: boolean) => {
      if (!ok) s.fail("invalid syntax for function call expression");
    };
    let requireComma = false;
    while (!s.isOp(")")) {
      if (requireComma) {
        s.expectOp(",");
        if (s.isOp(")")) break;
      }
      if (s.skipOp("*")) {
        ensure(result.dynArgs === null && result.dynKwargs === null);
        result.dynArgs = this.parseExpression();
      } else if (s.skipOp("**")) {
        ensure(result.dynKwargs === null);
        result.dynKwargs = this.parseExpression();
      } else if (s.current.type === "name" && s.look().type === "op" && s.look().value === "=") {
        ensure(result.dynKwargs === null);
        const key = s.next().value;
        s.next();
        result.kwargs.push([key, this.parseExpression()]);
      } else {
        ensure(result.dynArgs === null && result.dynKwargs === null && result.kwargs.length === 0);
        result.args.push(this.parseExpression());
      }
      requireComma = true;
    }
    s.expectOp(")");
    return result;
  }

  private dottedName(): { name: string; pos: number } {
    const s = this.stream;
    const first = s.expectName();
    let name = first.value;
    while (s.isOp(".")) {
      s.next();
      name += `.${s.expectName().value}`;
    }
    return { name, pos: first.pos };
  }

  /** `| name(args)` chains; `node` null means "the block body" (filter blocks, set blocks). */
  parseFilter(node: Expr | null, startInline = false): Expr | null {
    const s = this.stream;
    while (s.isOp("|") || startInline) {
      if (!startInline) s.next();
      startInline = false;
      const { name, pos } = this.dottedName();
      if (!this.registry.hasFilter(name)) s.fail(`No filter named '${name}'.`, undefined, pos);
      const args: CallArgs = s.isOp("(")
        ? this.parseCallArgs()
        : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      node = { kind: "filter", name, node, ...args };
    }
    return node;
  }

  private parseTest(node: Expr): Expr {
    const s = this.stream;
    s.next();
    const negated = s.skipName("not");
    const { name, pos } = this.dottedName();
    if (!this.registry.hasTest(name)) s.fail(`No test named '${name}'.`, undefined, pos);
    let args: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    const t = s.current;
    if (s.isOp("(")) {
      args = this.parseCallArgs();
    } else if (
      (PRIMARY_START.has(t.type) || (t.type === "op" && (t.value === "[" || t.value === "{"))) &&
      !(t.type === "name" && (t.value === "else" || t.value === "or" || t.value === "and"))
    ) {
      if (t.type === "name" && t.value === "is") s.fail("You cannot chain multiple tests with is");
      args.args.push(this.parsePostfix(this.parsePrimary()));
    }
    const test: Expr = { kind: "test", name, node, ...args };
    return negated ? { kind: "unary", op: "not", node: test } : test;
  }

  /** Assignment targets: a name, a tuple of names, or (for `set`) `namespace.attr`. */
  parseAssignTarget(opts: { extraEnd?: string[]; withNamespace?: boolean; nameOnly?: boolean } = {}): Target {
    const s = this.stream;
    if (opts.withNamespace && s.look().type === "op" && s.look().value === ".") {
      const name = s.expectName().value;
      s.next();
      return { kind: "nsref", name, attr: s.expectName().value };
    }
    if (opts.nameOnly) return { kind: "name", name: s.expectName().value };
    const start = s.current.pos;
    const expr = this.parseTuple({ simplified: true, ...(opts.extraEnd ? { extraEnd: opts.extraEnd } : {}) });
    return toTarget(expr, () => s.fail(`can't assign to '${expr.kind}'`, undefined, start));
  }
}

function toTarget(expr: Expr, fail: () => never): Target {
  if (expr.kind === "name") {
    if (["true", "false", "none", "True", "False", "None"].includes(expr.name)) fail();
    return { kind: "name", name: expr.name };
  }
  if (expr.kind === "tuple") return { kind: "tuple", items: expr.items.map((item) => toTarget(item, fail)) };
  return fail();
}
