import type { MacroParam, Stmt, Target } from "../ast/nodes.js";
import { TemplateRuntimeError } from "../errors.js";
import { compileExpr, compileFilter, type ExprFn, type Registries, type Scope } from "./compile-expr.js";
import { LoopContext } from "./loop.js";
import { iterate, typeError } from "./operators.js";
import { pyStr } from "./printing.js";
import type { RenderState } from "./state.js";
import { type Kwargs, makeTuple, Namespace, newDict, PyCallable, truthy, Undefined } from "./values.js";

/** Statement closures return a control signal so `break`/`continue` need no exceptions. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export type StmtFn = (vars: Scope, st: RenderState) => number;

export function compileBody(stmts: Stmt[], reg: Registries): StmtFn {
  const fns = stmts.map((s) => compileStmt(s, reg));
  if (fns.length === 0) return () => NORMAL;
  if (fns.length === 1) return fns[0]!;
  return (vars, st) => {
    for (let i = 0; i < fns.length; i++) {
      const signal = fns[i]!(vars, st);
      if (signal !== NORMAL) return signal;
    }
    return NORMAL;
  };
}

function assign(vars: Scope, target: Target, value: unknown): void {
  if (target.kind === "name") {
    vars[target.name] = value;
  } else if (target.kind === "tuple") {
    const items = iterate(value);
    const want = target.items.length;
    if (items.length < want) {
      throw new TemplateRuntimeError(
        `not enough values to unpack (expected ${want}, got ${items.length})`,
        "ValueError",
      );
    }
    if (items.length > want) {
      throw new TemplateRuntimeError(`too many values to unpack (expected ${want})`, "ValueError");
    }
    for (let i = 0; i < want; i++) assign(vars, target.items[i]!, items[i]);
  } else {
    const ns = vars[target.name];
    if (!(ns instanceof Namespace)) {
      throw new TemplateRuntimeError(
        "cannot assign attribute on non-namespace object",
        "TemplateRuntimeError",
      );
    }
    ns.attrs[target.attr] = value;
  }
}

/** Names referenced anywhere in a subtree (to know whether a macro uses varargs/kwargs/caller). */
function referencedNames(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) referencedNames(n, into);
  else if (node !== null && typeof node === "object") {
    const rec = node as Record<string, unknown>;
    if (rec.kind === "name" && typeof rec.name === "string") into.add(rec.name);
    for (const key in rec) if (key !== "kind") referencedNames(rec[key], into);
  }
  return into;
}

function compileStmt(stmt: Stmt, reg: Registries): StmtFn {
  const line = stmt.line;
  switch (stmt.kind) {
    case "data": {
      const text = stmt.text;
      return (_vars, st) => {
        st.write(text);
        return NORMAL;
      };
    }
    case "print": {
      const expr = compileExpr(stmt.expr, reg);
      return (vars, st) => {
        st.line = line;
        const v = expr(vars, st);
        st.write(typeof v === "string" ? v : pyStr(v));
        return NORMAL;
      };
    }
    case "if": {
      const test = compileExpr(stmt.test, reg);
      const body = compileBody(stmt.body, reg);
      const otherwise = compileBody(stmt.otherwise, reg);
      return (vars, st) => {
        st.line = line;
        return truthy(test(vars, st)) ? body(vars, st) : otherwise(vars, st);
      };
    }
    case "for":
      return compileFor(stmt, reg);
    case "set": {
      const expr = compileExpr(stmt.expr, reg);
      const target = stmt.target;
      return (vars, st) => {
        st.line = line;
        assign(vars, target, expr(vars, st));
        return NORMAL;
      };
    }
    case "setblock": {
      const body = compileBody(stmt.body, reg);
      const filter = stmt.filter ? compileFilterChain(stmt.filter, reg) : null;
      const target = stmt.target;
      return (vars, st) => {
        st.line = line;
        let value: unknown = st.capture(() => body(vars, st));
        if (filter) value = filter(value, vars, st);
        assign(vars, target, value);
        return NORMAL;
      };
    }
    case "macro": {
      const name = stmt.name;
      const make = compileMacro(name, stmt.params, stmt.body, reg);
      return (vars, st) => {
        vars[name] = make(vars, st);
        return NORMAL;
      };
    }
    case "callblock": {
      const call = stmt.call as Extract<typeof stmt.call, { kind: "call" }>;
      const makeCaller = compileMacro("caller", stmt.params, stmt.body, reg);
      const invoke = compileExpr(
        { ...call, kwargs: [...call.kwargs, ["caller", { kind: "name", name: "\u0000caller" }]] },
        reg,
      );
      return (vars, st) => {
        st.line = line;
        const scope: Scope = Object.create(vars);
        scope["\u0000caller"] = makeCaller(vars, st);
        const v = invoke(scope, st);
        st.write(pyStr(v));
        return NORMAL;
      };
    }
    case "filterblock": {
      const body = compileBody(stmt.body, reg);
      const filter = compileFilterChain(stmt.filter, reg);
      return (vars, st) => {
        st.line = line;
        const text = st.capture(() => body(Object.create(vars), st));
        st.write(pyStr(filter(text, vars, st)));
        return NORMAL;
      };
    }
    case "with": {
      const values = stmt.values.map((v) => compileExpr(v, reg));
      const targets = stmt.targets;
      const body = compileBody(stmt.body, reg);
      return (vars, st) => {
        st.line = line;
        const scope: Scope = Object.create(vars);
        for (let i = 0; i < targets.length; i++) assign(scope, targets[i]!, values[i]!(vars, st));
        return body(scope, st);
      };
    }
    case "scope": {
      const body = compileBody(stmt.body, reg);
      return (vars, st) => body(Object.create(vars), st);
    }
    case "break":
      return () => BREAK;
    case "continue":
      return () => CONTINUE;
  }
}

type ChainFn = (input: unknown, vars: Scope, st: RenderState) => unknown;

/** A `| f | g` chain applied to a captured block body (filter blocks, `{% set x | f %}`). */
function compileFilterChain(expr: import("../ast/nodes.js").Expr, reg: Registries): ChainFn {
  const INPUT = "\u0000input";
  const rewrite = (e: import("../ast/nodes.js").Expr): import("../ast/nodes.js").Expr => {
    if (e.kind !== "filter") return e;
    return { ...e, node: e.node ? rewrite(e.node) : { kind: "name", name: INPUT } };
  };
  const rewritten = rewrite(expr);
  if (rewritten.kind !== "filter") return (input) => input;
  const fn = compileFilter(rewritten.name, compileExpr(rewritten.node!, reg), rewritten, reg);
  return (input, vars, st) => {
    const scope: Scope = Object.create(vars);
    scope[INPUT] = input;
    return fn(scope, st);
  };
}

function compileMacro(
  name: string,
  params: MacroParam[],
  stmts: Stmt[],
  reg: Registries,
): (defScope: Scope, st: RenderState) => PyCallable {
  const body = compileBody(stmts, reg);
  const defaults: (ExprFn | null)[] = params.map((p) => (p.default ? compileExpr(p.default, reg) : null));
  const used = referencedNames(stmts, new Set());
  const takesVarargs = used.has("varargs");
  const takesKwargs = used.has("kwargs");
  const takesCaller = used.has("caller");
  return (defScope) =>
    new PyCallable(
      name,
      (args: unknown[], kwargs: Kwargs | null, st: RenderState) => {
        st.enter();
        try {
          const scope: Scope = Object.create(defScope);
          const rest = kwargs === null ? null : Object.assign(newDict(), kwargs);
          for (let i = 0; i < params.length; i++) {
            const p = params[i]!;
            if (i < args.length) {
              if (rest !== null && Object.hasOwn(rest, p.name)) {
                throw typeError(`macro '${name}' got multiple values for argument '${p.name}'`);
              }
              scope[p.name] = args[i];
            } else if (rest !== null && Object.hasOwn(rest, p.name)) {
              scope[p.name] = rest[p.name];
              delete rest[p.name];
            } else {
              const d = defaults[i];
              scope[p.name] = d ? d(scope, st) : new Undefined(`parameter '${p.name}' was not provided`);
            }
          }
          if (rest !== null && Object.hasOwn(rest, "caller")) {
            if (!takesCaller) throw typeError(`macro '${name}' takes no keyword argument 'caller'`);
            scope.caller = rest.caller;
            delete rest.caller;
          }
          const extra = args.length > params.length ? args.slice(params.length) : [];
          if (takesVarargs) scope.varargs = makeTuple(extra);
          else if (extra.length > 0) {
            throw typeError(`macro '${name}' takes not more than ${params.length} argument(s)`);
          }
          const restKeys = rest === null ? [] : Object.keys(rest);
          if (takesKwargs) scope.kwargs = rest ?? newDict();
          else if (restKeys.length > 0)
            throw typeError(`macro '${name}' takes no keyword argument '${restKeys[0]}'`);
          return st.capture(() => body(scope, st));
        } finally {
          st.depth--;
        }
      },
      "macro",
    );
}

function compileFor(stmt: Extract<Stmt, { kind: "for" }>, reg: Registries): StmtFn {
  const line = stmt.line;
  const iter = compileExpr(stmt.iter, reg);
  const filter = stmt.filter ? compileExpr(stmt.filter, reg) : null;
  const body = compileBody(stmt.body, reg);
  const otherwise = compileBody(stmt.otherwise, reg);
  const target = stmt.target;
  const simpleName = target.kind === "name" ? target.name : null;

  const run = (source: unknown, vars: Scope, st: RenderState, depth0: number): number => {
    let items = iterate(source);
    if (filter) {
      const kept: unknown[] = [];
      for (const item of items) {
        st.tick();
        const scope: Scope = Object.create(vars);
        assign(scope, target, item);
        if (truthy(filter(scope, st))) kept.push(item);
      }
      items = kept;
    }
    if (items.length === 0) return otherwise(vars, st);
    const recurse = stmt.recursive
      ? (next: unknown) => {
          st.enter();
          try {
            return st.capture(() => run(next, vars, st, depth0 + 1));
          } finally {
            st.depth--;
          }
        }
      : null;
    const loop = new LoopContext(items, depth0, recurse);
    for (let i = 0; i < items.length; i++) {
      st.tick();
      const scope: Scope = Object.create(vars);
      if (simpleName !== null) scope[simpleName] = items[i];
      else assign(scope, target, items[i]);
      loop.index0 = i;
      scope.loop = loop;
      if (body(scope, st) === BREAK) break;
    }
    return NORMAL;
  };

  return (vars, st) => {
    st.line = line;
    return run(iter(vars, st), vars, st, 0);
  };
}
