import type { CallArgs, Expr } from "../ast/nodes.js";
import type { FilterFn, TestFn } from "../builtins/args.js";
import { DICT_METHODS, UNSAFE_METHODS } from "../builtins/methods.js";
import { compileLookup, type Evaluator, type ScopeInfo } from "../runtime/scope.js";
import {
  ApplyFilter,
  ApplyTest,
  type ArgList,
  Call,
  CallMethod,
  KeywordArgs,
  type KwargList,
  NO_ARG_LIST,
  PositionalArgs,
} from "./call-nodes.js";
import {
  And,
  Binary,
  Compare,
  CompareChain,
  Conditional,
  Constant,
  DictLiteral,
  FilterInput,
  GetAttr,
  GetItem,
  GetKeyAttr,
  GetKeyItem,
  ListLiteral,
  Negate,
  Not,
  Or,
  Plus,
  Slice,
  Sum,
} from "./expr-nodes.js";

export interface Registries {
  filters: Record<string, FilterFn>;
  tests: Record<string, TestFn>;
}

/** What compilation needs: the filter/test registries and the scope the code runs in. */
export interface CompileContext {
  reg: Registries;
  scope: ScopeInfo;
}

/** Tests that take an argument (`x is divisibleby 3`); all others take none, as in jinja2. */
const ONE_ARG_TESTS = new Set([
  "divisibleby",
  "eq",
  "equalto",
  "==",
  "ne",
  "!=",
  "lt",
  "lessthan",
  "<",
  "le",
  "<=",
  "gt",
  "greaterthan",
  ">",
  "ge",
  ">=",
  "in",
  "sameas",
]);

const FILTER_INPUT = new FilterInput();

/** A literal's evaluator, one per distinct value in a template (`'user'`, `'\n'` recur). */
function constant(value: unknown, cx: CompileContext): Evaluator {
  const shareable = value === null || (typeof value !== "object" && !Object.is(value, -0));
  if (!shareable) return new Constant(value);
  let read = cx.scope.constants.get(value);
  if (read === undefined) {
    read = new Constant(value);
    cx.scope.constants.set(value, read);
  }
  return read;
}

/**
 * Compiles each expression. A loop rather than `nodes.map((n) => compileExpr(n, cx))`: keeps the compiler
 * free of closures, which V8 would give a context holding `cx` and the AST.
 */
export function compileEach(nodes: readonly Expr[], cx: CompileContext): Evaluator[] {
  const compiled: Evaluator[] = [];
  for (const node of nodes) compiled.push(compileExpr(node, cx));
  return compiled;
}

/** Turns an expression tree into an evaluator; each node's work is decided once, here. */
export function compileExpr(node: Expr, cx: CompileContext): Evaluator {
  switch (node.kind) {
    case "const":
      return constant(node.value, cx);
    case "name":
      return compileLookup(node.name, cx.scope);
    case "input":
      return FILTER_INPUT;
    case "list":
    case "tuple":
      return new ListLiteral(compileEach(node.items, cx), node.kind === "tuple");
    case "dict":
      return new DictLiteral(
        compileEach(
          node.pairs.map((pair) => pair[0]),
          cx,
        ),
        compileEach(
          node.pairs.map((pair) => pair[1]),
          cx,
        ),
      );
    case "getattr": {
      const obj = compileExpr(node.obj, cx);
      if (Object.hasOwn(DICT_METHODS, node.attr) || UNSAFE_METHODS.has(node.attr)) {
        return new GetAttr(obj, node.attr);
      }
      return new GetKeyAttr(obj, node.attr);
    }
    case "getitem": {
      const obj = compileExpr(node.obj, cx);
      // A key starting with NUL is stored escaped (values.ts storageKey): the general path finds it.
      if (
        node.key.kind === "const" &&
        typeof node.key.value === "string" &&
        node.key.value.charCodeAt(0) !== 0
      ) {
        return new GetKeyItem(obj, node.key.value);
      }
      return new GetItem(obj, compileExpr(node.key, cx));
    }
    case "slice":
      return new Slice(
        compileExpr(node.obj, cx),
        node.start ? compileExpr(node.start, cx) : null,
        node.stop ? compileExpr(node.stop, cx) : null,
        node.step ? compileExpr(node.step, cx) : null,
      );
    case "call":
      return compileCall(node, cx);
    case "filter": {
      const input = node.node ? compileExpr(node.node, cx) : new Constant(undefined);
      return compileFilter(node.name, input, node, cx);
    }
    case "test": {
      const value = compileExpr(node.node, cx);
      const { pos, kw } = compileArgs(node, cx);
      const arity = ONE_ARG_TESTS.has(node.name) ? 1 : 0;
      return new ApplyTest(cx.reg.tests[node.name]!, node.name, arity, value, pos, kw);
    }
    case "binop":
      if (node.op === "+" && node.left.kind === "binop" && node.left.op === "+") {
        return new Sum(compileTerms(node, cx));
      }
      return new Binary(node.op, compileExpr(node.left, cx), compileExpr(node.right, cx));
    case "unary": {
      const inner = compileExpr(node.node, cx);
      if (node.op === "not") return new Not(inner);
      return node.op === "-" ? new Negate(inner) : new Plus(inner);
    }
    case "and":
      return new And(compileExpr(node.left, cx), compileExpr(node.right, cx));
    case "or":
      return new Or(compileExpr(node.left, cx), compileExpr(node.right, cx));
    case "compare": {
      const head = compileExpr(node.first, cx);
      const operands = compileEach(
        node.ops.map((pair) => pair[1]),
        cx,
      );
      if (node.ops.length === 1) return new Compare(node.ops[0]![0], head, operands[0]!);
      return new CompareChain(
        node.ops.map((pair) => pair[0]),
        head,
        operands,
      );
    }
    case "cond":
      return new Conditional(
        compileExpr(node.test, cx),
        compileExpr(node.whenTrue, cx),
        node.otherwise ? compileExpr(node.otherwise, cx) : null,
      );
  }
}

export function compileFilter(name: string, input: Evaluator, args: CallArgs, cx: CompileContext): Evaluator {
  const { pos, kw } = compileArgs(args, cx);
  return new ApplyFilter(cx.reg.filters[name]!, input, pos, kw);
}

/** Call arguments: positional values (with `*args`) and keyword values (with `**kwargs`, null if none). */
export interface CompiledArgs {
  pos: ArgList;
  kw: KwargList | null;
}

export function compileArgs(node: CallArgs, cx: CompileContext): CompiledArgs {
  const dynArgs = node.dynArgs ? compileExpr(node.dynArgs, cx) : null;
  const pos =
    node.args.length === 0 && dynArgs === null
      ? NO_ARG_LIST
      : new PositionalArgs(compileEach(node.args, cx), dynArgs);
  const dynKwargs = node.dynKwargs ? compileExpr(node.dynKwargs, cx) : null;
  if (node.kwargs.length === 0 && dynKwargs === null) return { pos, kw: null };
  const names = node.kwargs.map((pair) => pair[0]);
  const values = compileEach(
    node.kwargs.map((pair) => pair[1]),
    cx,
  );
  return { pos, kw: new KeywordArgs(names, values, dynKwargs) };
}

function compileCall(node: Extract<Expr, { kind: "call" }>, cx: CompileContext): Evaluator {
  const { pos, kw } = compileArgs(node, cx);
  const callee = node.callee;
  if (callee.kind === "getattr") return new CallMethod(compileExpr(callee.obj, cx), callee.attr, pos, kw);
  return new Call(compileExpr(callee, cx), pos, kw);
}

/** The operands of `a + b + c + ...` (a left-nested chain of `+`; one term for any other expression). */
export function compileTerms(node: Expr, cx: CompileContext): Evaluator[] {
  const terms: Expr[] = [];
  let left: Expr = node;
  while (left.kind === "binop" && left.op === "+") {
    terms.push(left.right);
    left = left.left;
  }
  terms.push(left);
  return compileEach(terms.reverse(), cx);
}
