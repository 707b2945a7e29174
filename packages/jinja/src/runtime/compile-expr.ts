import type { CallArgs, Expr } from "../ast/nodes.js";
import { LimitExceededError } from "../errors.js";
import { callValue, findMethod, getAttr, getItem, getSlice } from "../sandbox.js";
import {
  add,
  compareValues,
  contains,
  div,
  eq,
  floorDiv,
  iterate,
  mappingKey,
  mod,
  mul,
  negate,
  plus,
  pow,
  sub,
  typeError,
} from "./operators.js";
import { pyStr } from "./printing.js";
import type { RenderState } from "./state.js";
import { isMapping, type Kwargs, makeTuple, newDict, truthy, Undefined } from "./values.js";

export type Scope = Record<string, unknown>;
export type ExprFn = (vars: Scope, st: RenderState) => unknown;
export type FilterFn = (value: unknown, args: unknown[], kwargs: Kwargs | null, st: RenderState) => unknown;
export type TestFn = (value: unknown, args: unknown[], kwargs: Kwargs | null, st: RenderState) => boolean;

export interface Registries {
  filters: Record<string, FilterFn>;
  tests: Record<string, TestFn>;
}

const NO_ARGS: unknown[] = [];

/** Turns an expression tree into a closure; each node's work is decided once, here. */
export function compileExpr(node: Expr, reg: Registries): ExprFn {
  switch (node.kind) {
    case "const": {
      const value = node.value;
      return () => value;
    }
    case "name": {
      const name = node.name;
      const missing = new Undefined(`'${name}' is undefined`);
      return (vars) => {
        const v = vars[name];
        return v === undefined ? missing : v;
      };
    }
    case "list": {
      const items = node.items.map((n) => compileExpr(n, reg));
      return (vars, st) => items.map((f) => f(vars, st));
    }
    case "tuple": {
      const items = node.items.map((n) => compileExpr(n, reg));
      return (vars, st) => makeTuple(items.map((f) => f(vars, st)));
    }
    case "dict": {
      const pairs = node.pairs.map(([k, v]) => [compileExpr(k, reg), compileExpr(v, reg)] as const);
      return (vars, st) => {
        const out = newDict();
        for (const [k, v] of pairs) {
          const key = k(vars, st);
          const name = mappingKey(key) ?? pyStr(key);
          out[name] = v(vars, st);
        }
        return out;
      };
    }
    case "getattr": {
      const obj = compileExpr(node.obj, reg);
      const attr = node.attr;
      return (vars, st) => getAttr(obj(vars, st), attr);
    }
    case "getitem": {
      const obj = compileExpr(node.obj, reg);
      const key = compileExpr(node.key, reg);
      return (vars, st) => getItem(obj(vars, st), key(vars, st));
    }
    case "slice": {
      const obj = compileExpr(node.obj, reg);
      const start = node.start ? compileExpr(node.start, reg) : null;
      const stop = node.stop ? compileExpr(node.stop, reg) : null;
      const step = node.step ? compileExpr(node.step, reg) : null;
      return (vars, st) =>
        getSlice(
          obj(vars, st),
          start?.(vars, st) ?? null,
          stop?.(vars, st) ?? null,
          step?.(vars, st) ?? null,
        );
    }
    case "call":
      return compileCall(node, reg);
    case "filter": {
      const input = node.node ? compileExpr(node.node, reg) : () => undefined;
      return compileFilter(node.name, input, node, reg);
    }
    case "test": {
      const test = reg.tests[node.name]!;
      const value = compileExpr(node.node, reg);
      const args = compileArgs(node, reg);
      return (vars, st) => {
        const [a, k] = args(vars, st);
        return test(value(vars, st), a, k, st);
      };
    }
    case "binop":
      return compileBinop(node.op, compileExpr(node.left, reg), compileExpr(node.right, reg));
    case "unary": {
      const inner = compileExpr(node.node, reg);
      if (node.op === "not") return (vars, st) => !truthy(inner(vars, st));
      if (node.op === "-") return (vars, st) => negate(inner(vars, st));
      return (vars, st) => plus(inner(vars, st));
    }
    case "and": {
      const left = compileExpr(node.left, reg);
      const right = compileExpr(node.right, reg);
      return (vars, st) => {
        const l = left(vars, st);
        return truthy(l) ? right(vars, st) : l;
      };
    }
    case "or": {
      const left = compileExpr(node.left, reg);
      const right = compileExpr(node.right, reg);
      return (vars, st) => {
        const l = left(vars, st);
        return truthy(l) ? l : right(vars, st);
      };
    }
    case "compare":
      return compileCompare(node.first, node.ops, reg);
    case "cond": {
      const test = compileExpr(node.test, reg);
      const whenTrue = compileExpr(node.whenTrue, reg);
      const otherwise = node.otherwise ? compileExpr(node.otherwise, reg) : null;
      const missing = new Undefined(
        "the inline if-expression evaluated to false and no else section was defined.",
      );
      return (vars, st) =>
        truthy(test(vars, st)) ? whenTrue(vars, st) : otherwise ? otherwise(vars, st) : missing;
    }
  }
}

export function compileFilter(name: string, input: ExprFn, args: CallArgs, reg: Registries): ExprFn {
  const filter = reg.filters[name]!;
  if (args.args.length === 0 && args.kwargs.length === 0 && !args.dynArgs && !args.dynKwargs) {
    return (vars, st) => filter(input(vars, st), NO_ARGS, null, st);
  }
  const compiled = compileArgs(args, reg);
  return (vars, st) => {
    const value = input(vars, st);
    const [a, k] = compiled(vars, st);
    return filter(value, a, k, st);
  };
}

type ArgsFn = (vars: Scope, st: RenderState) => [unknown[], Kwargs | null];

export function compileArgs(node: CallArgs, reg: Registries): ArgsFn {
  const positional = node.args.map((a) => compileExpr(a, reg));
  const keywords = node.kwargs.map(([k, v]) => [k, compileExpr(v, reg)] as const);
  const dynArgs = node.dynArgs ? compileExpr(node.dynArgs, reg) : null;
  const dynKwargs = node.dynKwargs ? compileExpr(node.dynKwargs, reg) : null;
  if (keywords.length === 0 && !dynArgs && !dynKwargs) {
    if (positional.length === 0) return () => [NO_ARGS, null];
    return (vars, st) => [positional.map((f) => f(vars, st)), null];
  }
  return (vars, st) => {
    const args = positional.map((f) => f(vars, st));
    if (dynArgs) args.push(...iterate(dynArgs(vars, st)));
    let kwargs: Kwargs | null = null;
    if (keywords.length > 0 || dynKwargs) {
      kwargs = newDict();
      for (const [k, f] of keywords) kwargs[k] = f(vars, st);
      if (dynKwargs) {
        const extra = dynKwargs(vars, st);
        if (!isMapping(extra)) throw typeError("argument after ** must be a mapping");
        Object.assign(kwargs, extra);
      }
    }
    return [args, kwargs];
  };
}

function compileCall(node: Extract<Expr, { kind: "call" }>, reg: Registries): ExprFn {
  const args = compileArgs(node, reg);
  const callee = node.callee;
  if (callee.kind === "getattr") {
    // `x.method(...)`: call Python methods directly instead of allocating a bound method.
    const obj = compileExpr(callee.obj, reg);
    const attr = callee.attr;
    return (vars, st) => {
      const self = obj(vars, st);
      const method = findMethod(self, attr);
      const [a, k] = args(vars, st);
      if (method !== null) return method(self, a, k, st);
      return callValue(getAttr(self, attr), a, k, st);
    };
  }
  const fn = compileExpr(callee, reg);
  return (vars, st) => {
    const f = fn(vars, st);
    const [a, k] = args(vars, st);
    return callValue(f, a, k, st);
  };
}

function compileBinop(op: string, l: ExprFn, r: ExprFn): ExprFn {
  switch (op) {
    case "+":
      return (vars, st) => add(l(vars, st), r(vars, st), st.limits);
    case "-":
      return (vars, st) => sub(l(vars, st), r(vars, st));
    case "*":
      return (vars, st) => mul(l(vars, st), r(vars, st), st.limits);
    case "/":
      return (vars, st) => div(l(vars, st), r(vars, st));
    case "//":
      return (vars, st) => floorDiv(l(vars, st), r(vars, st));
    case "%":
      return (vars, st) => mod(l(vars, st), r(vars, st));
    case "**":
      return (vars, st) => pow(l(vars, st), r(vars, st));
    default:
      return (vars, st) => {
        const a = l(vars, st);
        const b = r(vars, st);
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

function compileCompare(first: Expr, ops: [string, Expr][], reg: Registries): ExprFn {
  const head = compileExpr(first, reg);
  const rest = ops.map(([op, e]) => [op, compileExpr(e, reg)] as const);
  if (rest.length === 1) {
    const [op, right] = rest[0]!;
    if (op === "==") return (vars, st) => eq(head(vars, st), right(vars, st));
    if (op === "!=") return (vars, st) => !eq(head(vars, st), right(vars, st));
    return (vars, st) => compareOnce(op, head(vars, st), right(vars, st));
  }
  return (vars, st) => {
    let left = head(vars, st);
    for (const [op, f] of rest) {
      const right = f(vars, st);
      if (!compareOnce(op, left, right)) return false;
      left = right;
    }
    return true;
  };
}
