import type { CallArgs, Expr } from "../ast/nodes.js";
import { type FilterFn, NO_ARGS, type TestFn } from "../builtins/args.js";
import { DICT_METHODS, UNSAFE_METHODS } from "../builtins/methods.js";
import { callValue, findMethod, getAttr, getItem, getSlice } from "../builtins/sandbox.js";
import { LimitExceededError } from "../errors.js";
import {
  add,
  compareValues,
  contains,
  div,
  eq,
  floorDiv,
  iterate,
  mod,
  mul,
  negate,
  plus,
  pow,
  sub,
  typeError,
} from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import { compileLookup, type Frame, type ScopeInfo } from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import {
  dictSetKey,
  dictUpdate,
  isMapping,
  type Kwargs,
  makeTuple,
  newDict,
  truthy,
  Undefined,
} from "../runtime/values.js";

export type ExprFn = (frame: Frame, st: RenderState) => unknown;

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

/** The TypeError Python raises for a test called with the wrong number of arguments. */
function testArityError(name: string, arity: number, given: number) {
  const fn = /^\w+$/.test(name) ? `test_${name}()` : `test '${name}'`;
  if (given > arity) {
    const takes = `${arity + 1} positional argument${arity === 0 ? "" : "s"}`;
    return typeError(`${fn} takes ${takes} but ${given + 1} were given`);
  }
  const param = name === "divisibleby" ? "num" : name === "in" ? "seq" : "other";
  return typeError(`${fn} missing 1 required positional argument: '${param}'`);
}

function testArity(name: string): number {
  return ONE_ARG_TESTS.has(name) ? 1 : 0;
}

/**
 * A literal's closure, one per distinct value in a template (`'user'`, `'\n'` recur): rendering is bound by
 * memory traffic, not calls (911 compiled templates outgrow the CPU caches), so closures are kept few.
 */
function constant(value: unknown, cx: CompileContext): ExprFn {
  const shareable = value === null || (typeof value !== "object" && !Object.is(value, -0));
  if (!shareable) return () => value;
  let fn = cx.scope.constants.get(value);
  if (fn === undefined) {
    fn = () => value;
    cx.scope.constants.set(value, fn);
  }
  return fn;
}

/**
 * Compiles each expression. A loop rather than `nodes.map((n) => compileExpr(n, cx))`: an arrow function
 * that captures `cx` makes V8 allocate a context for the whole compiling function, which every closure
 * compiled there would then keep (with the AST it points to) and walk through at render time.
 */
export function compileEach(nodes: readonly Expr[], cx: CompileContext): ExprFn[] {
  const fns: ExprFn[] = [];
  for (const node of nodes) fns.push(compileExpr(node, cx));
  return fns;
}

/** Turns an expression tree into a closure; each node's work is decided once, here. */
export function compileExpr(node: Expr, cx: CompileContext): ExprFn {
  switch (node.kind) {
    case "const":
      return constant(node.value, cx);
    case "name":
      return compileLookup(node.name, cx.scope);
    case "input":
      return (_f, st) => st.filterInput;
    case "list": {
      const items = compileEach(node.items, cx);
      return (f, st) => items.map((fn) => fn(f, st));
    }
    case "tuple": {
      const items = compileEach(node.items, cx);
      return (f, st) => makeTuple(items.map((fn) => fn(f, st)));
    }
    case "dict": {
      const keys = compileEach(
        node.pairs.map((pair) => pair[0]),
        cx,
      );
      const values = compileEach(
        node.pairs.map((pair) => pair[1]),
        cx,
      );
      return (f, st) => {
        const out = newDict();
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!(f, st);
          dictSetKey(out, key, values[i]!(f, st));
        }
        return out;
      };
    }
    case "getattr": {
      const obj = compileExpr(node.obj, cx);
      const attr = node.attr;
      if (Object.hasOwn(DICT_METHODS, attr) || UNSAFE_METHODS.has(attr)) {
        return (f, st) => getAttr(obj(f, st), attr);
      }
      // The common `message.role`: a dict key that cannot be a dict method.
      return (f, st) => {
        const o = obj(f, st);
        if (isMapping(o) && Object.hasOwn(o, attr)) return o[attr];
        return getAttr(o, attr);
      };
    }
    case "getitem": {
      const obj = compileExpr(node.obj, cx);
      if (node.key.kind === "const" && typeof node.key.value === "string") {
        // `message['role']`: item first, then Python attribute, as jinja2's getitem.
        const key = node.key.value;
        // A key starting with NUL is stored escaped (values.ts storageKey): the general path finds it.
        if (key.charCodeAt(0) === 0) return (f, st) => getItem(obj(f, st), key);
        return (f, st) => {
          const o = obj(f, st);
          if (isMapping(o) && Object.hasOwn(o, key)) return o[key];
          return getItem(o, key);
        };
      }
      const key = compileExpr(node.key, cx);
      return (f, st) => getItem(obj(f, st), key(f, st));
    }
    case "slice": {
      const obj = compileExpr(node.obj, cx);
      const start = node.start ? compileExpr(node.start, cx) : null;
      const stop = node.stop ? compileExpr(node.stop, cx) : null;
      const step = node.step ? compileExpr(node.step, cx) : null;
      return (f, st) =>
        getSlice(obj(f, st), start?.(f, st) ?? null, stop?.(f, st) ?? null, step?.(f, st) ?? null);
    }
    case "call":
      return compileCall(node, cx);
    case "filter": {
      const input = node.node ? compileExpr(node.node, cx) : () => undefined;
      return compileFilter(node.name, input, node, cx);
    }
    case "test": {
      const test = cx.reg.tests[node.name]!;
      const arity = testArity(node.name);
      const name = node.name;
      const value = compileExpr(node.node, cx);
      const { pos, kw } = compileArgs(node, cx);
      return (f, st) => {
        const v = value(f, st);
        const a = pos(f, st);
        const k = kw === null ? null : kw(f, st);
        const given = a.length + (k === null ? 0 : Object.keys(k).length);
        if (given !== arity) throw testArityError(name, arity, given);
        return test(v, a, k, st);
      };
    }
    case "binop":
      if (node.op === "+" && node.left.kind === "binop" && node.left.op === "+") {
        return sumOf(compileTerms(node, cx));
      }
      return compileBinop(node.op, compileExpr(node.left, cx), compileExpr(node.right, cx));
    case "unary": {
      const inner = compileExpr(node.node, cx);
      if (node.op === "not") return (f, st) => !truthy(inner(f, st));
      if (node.op === "-") return (f, st) => negate(inner(f, st));
      return (f, st) => plus(inner(f, st));
    }
    case "and": {
      const left = compileExpr(node.left, cx);
      const right = compileExpr(node.right, cx);
      return (f, st) => {
        const l = left(f, st);
        return truthy(l) ? right(f, st) : l;
      };
    }
    case "or": {
      const left = compileExpr(node.left, cx);
      const right = compileExpr(node.right, cx);
      return (f, st) => {
        const l = left(f, st);
        return truthy(l) ? l : right(f, st);
      };
    }
    case "compare":
      return compileCompare(node.first, node.ops, cx);
    case "cond": {
      const test = compileExpr(node.test, cx);
      const whenTrue = compileExpr(node.whenTrue, cx);
      const otherwise = node.otherwise ? compileExpr(node.otherwise, cx) : null;
      const missing = new Undefined(
        "the inline if-expression evaluated to false and no else section was defined.",
      );
      return (f, st) => (truthy(test(f, st)) ? whenTrue(f, st) : otherwise ? otherwise(f, st) : missing);
    }
  }
}

export function compileFilter(name: string, input: ExprFn, args: CallArgs, cx: CompileContext): ExprFn {
  const filter = cx.reg.filters[name]!;
  const { pos, kw } = compileArgs(args, cx);
  if (kw === null) {
    if (args.args.length === 0 && !args.dynArgs)
      return (f, st) => {
        const value = input(f, st);
        st.stepOver(value);
        return filter(value, NO_ARGS, null, st);
      };
    return (f, st) => {
      const value = input(f, st);
      st.stepOver(value);
      return filter(value, pos(f, st), null, st);
    };
  }
  return (f, st) => {
    const value = input(f, st);
    st.stepOver(value);
    const a = pos(f, st);
    return filter(value, a, kw(f, st), st);
  };
}

/** Call arguments: positional values (with `*args`) and keyword values (with `**kwargs`, null if none). */
export interface ArgsFns {
  pos: (f: Frame, st: RenderState) => unknown[];
  kw: ((f: Frame, st: RenderState) => Kwargs) | null;
}

const noArgs = () => NO_ARGS;

export function compileArgs(node: CallArgs, cx: CompileContext): ArgsFns {
  const positional = compileEach(node.args, cx);
  const keywordNames = node.kwargs.map((pair) => pair[0]);
  const keywordValues = compileEach(
    node.kwargs.map((pair) => pair[1]),
    cx,
  );
  const dynArgs = node.dynArgs ? compileExpr(node.dynArgs, cx) : null;
  const dynKwargs = node.dynKwargs ? compileExpr(node.dynKwargs, cx) : null;
  let pos: ArgsFns["pos"];
  if (dynArgs) {
    pos = (f, st) => {
      const args = positional.map((fn) => fn(f, st));
      args.push(...iterate(dynArgs(f, st)));
      return args;
    };
  } else if (positional.length === 0) pos = noArgs;
  else if (positional.length === 1) {
    const only = positional[0]!;
    pos = (f, st) => [only(f, st)];
  } else pos = (f, st) => positional.map((fn) => fn(f, st));
  if (keywordNames.length === 0 && !dynKwargs) return { pos, kw: null };
  const kw = (f: Frame, st: RenderState): Kwargs => {
    const kwargs = newDict();
    for (let i = 0; i < keywordNames.length; i++) kwargs[keywordNames[i]!] = keywordValues[i]!(f, st);
    if (dynKwargs) {
      const extra = dynKwargs(f, st);
      if (!isMapping(extra)) throw typeError("argument after ** must be a mapping");
      dictUpdate(kwargs, extra);
    }
    return kwargs;
  };
  return { pos, kw };
}

function compileCall(node: Extract<Expr, { kind: "call" }>, cx: CompileContext): ExprFn {
  const { pos, kw } = compileArgs(node, cx);
  const callee = node.callee;
  if (callee.kind === "getattr") {
    // `x.method(...)`: call Python methods directly instead of allocating a bound method.
    const obj = compileExpr(callee.obj, cx);
    const attr = callee.attr;
    return (f, st) => {
      const self = obj(f, st);
      st.stepOver(self);
      const method = findMethod(self, attr);
      const a = pos(f, st);
      const k = kw === null ? null : kw(f, st);
      if (method !== null) return method(self, a, k, st);
      return callValue(getAttr(self, attr), a, k, st);
    };
  }
  const fn = compileExpr(callee, cx);
  return (f, st) => {
    const target = fn(f, st);
    st.step();
    const a = pos(f, st);
    return callValue(target, a, kw === null ? null : kw(f, st), st);
  };
}

/** The operands of `a + b + c + ...` (a left-nested chain of `+`; one term for any other expression). */
export function compileTerms(node: Expr, cx: CompileContext): ExprFn[] {
  const terms: Expr[] = [];
  let left: Expr = node;
  while (left.kind === "binop" && left.op === "+") {
    terms.push(left.right);
    left = left.left;
  }
  terms.push(left);
  return compileEach(terms.reverse(), cx);
}

/** Adds terms left to right, as the nested `(a + b) + c` does. */
export function addTerms(terms: ExprFn[], f: Frame, st: RenderState): unknown {
  let sum = terms[0]!(f, st);
  for (let i = 1; i < terms.length; i++) sum = add(sum, terms[i]!(f, st), st.limits);
  return sum;
}

/**
 * `a + b + c + ...` (chat templates build each turn this way) as one closure over its operands instead of
 * one per `+`: rendering is bound by memory traffic, so fewer closures render faster.
 */
function sumOf(terms: ExprFn[]): ExprFn {
  return (f, st) => addTerms(terms, f, st);
}

function compileBinop(op: string, l: ExprFn, r: ExprFn): ExprFn {
  switch (op) {
    case "+":
      return (f, st) => add(l(f, st), r(f, st), st.limits);
    case "-":
      return (f, st) => sub(l(f, st), r(f, st));
    case "*":
      return (f, st) => mul(l(f, st), r(f, st), st.limits);
    case "/":
      return (f, st) => div(l(f, st), r(f, st));
    case "//":
      return (f, st) => floorDiv(l(f, st), r(f, st));
    case "%":
      return (f, st) => mod(l(f, st), r(f, st));
    case "**":
      return (f, st) => pow(l(f, st), r(f, st));
    default:
      return (f, st) => {
        const a = l(f, st);
        const b = r(f, st);
        const text = (typeof a === "string" ? a : pyStr(a)) + (typeof b === "string" ? b : pyStr(b));
        if (text.length > st.limits.maxOutputLength) {
          throw new LimitExceededError("string exceeds the output limit");
        }
        return text;
      };
  }
}

function compareOnce(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return eq(a, b);
    case "!=":
      return !eq(a, b);
    case "<":
      return compareValues(a, b, "lt") < 0;
    case "<=":
      return compareValues(a, b, "le") <= 0;
    case ">":
      return compareValues(a, b, "gt") > 0;
    case ">=":
      return compareValues(a, b, "ge") >= 0;
    case "in":
      return contains(b, a);
    default:
      return !contains(b, a);
  }
}

function compileCompare(first: Expr, ops: [string, Expr][], cx: CompileContext): ExprFn {
  const head = compileExpr(first, cx);
  const names = ops.map((pair) => pair[0]);
  const operands = compileEach(
    ops.map((pair) => pair[1]),
    cx,
  );
  return names.length === 1 ? compareOne(names[0]!, head, operands[0]!) : compareChain(names, head, operands);
}

function compareOne(op: string, head: ExprFn, right: ExprFn): ExprFn {
  if (op === "==") return (f, st) => eq(head(f, st), right(f, st));
  if (op === "!=") return (f, st) => !eq(head(f, st), right(f, st));
  return (f, st) => compareOnce(op, head(f, st), right(f, st));
}

function compareChain(ops: string[], head: ExprFn, operands: ExprFn[]): ExprFn {
  return (f, st) => {
    let left = head(f, st);
    for (let i = 0; i < ops.length; i++) {
      const right = operands[i]!(f, st);
      if (!compareOnce(ops[i]!, left, right)) return false;
      left = right;
    }
    return true;
  };
}
