import type { Expr, MacroParam, MacroSpecialNames, Stmt, Target } from "../ast/nodes.js";
import { callValue } from "../builtins/sandbox.js";
import { TemplateRuntimeError } from "../errors.js";
import { LoopContext } from "../runtime/loop.js";
import { iterate, typeError } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import {
  compileLookup,
  declare,
  declareAssigned,
  declareTarget,
  type Frame,
  type LookupFn,
  newFrame,
  newScope,
  type ScopeInfo,
} from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import {
  dictDelete,
  dictKeys,
  dictSet,
  dictUpdate,
  type Kwargs,
  makeTuple,
  Namespace,
  newDict,
  PyCallable,
  truthy,
  Undefined,
} from "../runtime/values.js";
import {
  type ArgsFns,
  type CompileContext,
  compileArgs,
  compileExpr,
  compileFilter,
  type ExprFn,
} from "./compile-expr.js";

/** Statement closures return a control signal so `break`/`continue` need no exceptions. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export type StmtFn = (frame: Frame, st: RenderState) => number;

/** Compiles statements that run in `cx.scope` (whose assigned names must already be declared). */
export function compileBody(stmts: Stmt[], cx: CompileContext): StmtFn {
  // A loop, not `.map` with an arrow capturing `cx`: see compileEach.
  const fns: StmtFn[] = [];
  for (const stmt of stmts) fns.push(compileStmt(stmt, cx));
  if (fns.length === 0) return () => NORMAL;
  if (fns.length === 1) return fns[0]!;
  return runAll(fns);
}

function runAll(fns: StmtFn[]): StmtFn {
  return (frame, st) => {
    for (let i = 0; i < fns.length; i++) {
      const signal = fns[i]!(frame, st);
      if (signal !== NORMAL) return signal;
    }
    return NORMAL;
  };
}

/** A body with its own scope: returns the compiled body and the frame size it needs. */
function compileScoped(stmts: Stmt[], cx: CompileContext): { body: StmtFn; scope: ScopeInfo } {
  const scope = newScope(cx.scope);
  declareAssigned(stmts, scope);
  return { body: compileBody(stmts, { reg: cx.reg, scope }), scope };
}

type AssignFn = (frame: Frame, st: RenderState, value: unknown) => void;

/** Compiles an assignment to a target declared in `cx.scope`. */
function compileAssign(target: Target, cx: CompileContext): AssignFn {
  if (target.kind === "name") return assignName(declare(cx.scope, target.name));
  if (target.kind === "tuple") {
    const parts: AssignFn[] = [];
    for (const item of target.items) parts.push(compileAssign(item, cx));
    return unpack(parts);
  }
  return assignAttribute(compileLookup(target.name, cx.scope), target.attr);
}

function assignName(slot: number): AssignFn {
  return (frame, _st, value) => {
    frame[slot] = value;
  };
}

function unpack(parts: AssignFn[]): AssignFn {
  const want = parts.length;
  return (frame, st, value) => {
    const items = iterate(value);
    if (items.length < want) {
      throw new TemplateRuntimeError(
        `not enough values to unpack (expected ${want}, got ${items.length})`,
        "ValueError",
      );
    }
    if (items.length > want) {
      throw new TemplateRuntimeError(`too many values to unpack (expected ${want})`, "ValueError");
    }
    for (let i = 0; i < want; i++) parts[i]!(frame, st, items[i]);
  };
}

function assignAttribute(lookup: LookupFn, attr: string): AssignFn {
  return (frame, st, value) => {
    const ns = lookup(frame, st);
    if (!(ns instanceof Namespace)) {
      throw new TemplateRuntimeError(
        "cannot assign attribute on non-namespace object",
        "TemplateRuntimeError",
      );
    }
    dictSet(ns.attrs, attr, value);
  };
}

/*
 * Each statement's closure is made by a function of its own, which captures only what that closure uses:
 * V8 gives the closures made in one call of a function one shared context, so closures made in a big
 * switch would each keep (and walk through at render time) a context holding the whole statement.
 */
function compileStmt(stmt: Stmt, cx: CompileContext): StmtFn {
  switch (stmt.kind) {
    case "data":
      return writeText(stmt.text);
    case "print":
      return printValue(compileExpr(stmt.expr, cx), stmt.line);
    case "if":
      return ifElse(
        compileExpr(stmt.test, cx),
        compileBody(stmt.body, cx),
        compileBody(stmt.otherwise, cx),
        stmt.line,
      );
    case "for":
      return compileFor(stmt, cx);
    case "set":
      return setValue(compileExpr(stmt.expr, cx), compileAssign(stmt.target, cx), stmt.line);
    case "setblock": {
      const { body, scope } = compileScoped(stmt.body, cx);
      const filter = stmt.filter ? compileFilterChain(stmt.filter, cx) : null;
      return setBlock(body, scope.slots.size, filter, compileAssign(stmt.target, cx), stmt.line);
    }
    case "macro": {
      const make = compileMacro(stmt.name, stmt.params, stmt.body, stmt.uses, cx);
      return defineMacro(make, declare(cx.scope, stmt.name));
    }
    case "callblock": {
      const call = stmt.call as Extract<Expr, { kind: "call" }>;
      const makeCaller = compileMacro("caller", stmt.params, stmt.body, stmt.uses, cx);
      const { pos, kw } = compileArgs(call, cx);
      return callBlock(compileExpr(call.callee, cx), pos, kw, makeCaller, stmt.line);
    }
    case "filterblock": {
      const { body, scope } = compileScoped(stmt.body, cx);
      return filterBlock(body, scope.slots.size, compileFilterChain(stmt.filter, cx), stmt.line);
    }
    case "with": {
      const values: ExprFn[] = [];
      for (const value of stmt.values) values.push(compileExpr(value, cx));
      const scope = newScope(cx.scope);
      for (const target of stmt.targets) declareTarget(target, scope);
      declareAssigned(stmt.body, scope);
      const inner = { reg: cx.reg, scope };
      const assigns: AssignFn[] = [];
      for (const target of stmt.targets) assigns.push(compileAssign(target, inner));
      return withBlock(values, assigns, compileBody(stmt.body, inner), scope.slots.size, stmt.line);
    }
    case "scope": {
      const { body, scope } = compileScoped(stmt.body, cx);
      return scoped(body, scope.slots.size);
    }
    case "break":
      return () => BREAK;
    case "continue":
      return () => CONTINUE;
  }
}

function writeText(text: string): StmtFn {
  return (_frame, st) => {
    st.write(text);
    return NORMAL;
  };
}

function printValue(expr: ExprFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    const v = expr(frame, st);
    st.write(typeof v === "string" ? v : pyStr(v));
    return NORMAL;
  };
}

function ifElse(test: ExprFn, body: StmtFn, otherwise: StmtFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    return truthy(test(frame, st)) ? body(frame, st) : otherwise(frame, st);
  };
}

function setValue(expr: ExprFn, assign: AssignFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    assign(frame, st, expr(frame, st));
    return NORMAL;
  };
}

function setBlock(
  body: StmtFn,
  size: number,
  filter: ChainFn | null,
  assign: AssignFn,
  line: number,
): StmtFn {
  return (frame, st) => {
    st.line = line;
    let signal = NORMAL;
    let value: unknown = st.capture(() => {
      signal = body(newFrame(frame, size), st);
    });
    // `break`/`continue` inside the block leave the loop before the assignment, as in Jinja2.
    if (signal !== NORMAL) return signal;
    if (filter) value = filter(value, frame, st);
    assign(frame, st, value);
    return NORMAL;
  };
}

function defineMacro(make: (defFrame: Frame) => PyCallable, slot: number): StmtFn {
  return (frame) => {
    frame[slot] = make(frame);
    return NORMAL;
  };
}

function callBlock(
  callee: ExprFn,
  pos: ArgsFns["pos"],
  kw: ArgsFns["kw"],
  makeCaller: (defFrame: Frame) => PyCallable,
  line: number,
): StmtFn {
  return (frame, st) => {
    st.line = line;
    const fn = callee(frame, st);
    const a = pos(frame, st);
    const kwargs: Kwargs = kw === null ? newDict() : kw(frame, st);
    kwargs.caller = makeCaller(frame);
    st.write(pyStr(callValue(fn, a, kwargs, st)));
    return NORMAL;
  };
}

function filterBlock(body: StmtFn, size: number, filter: ChainFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    let signal = NORMAL;
    const text = st.capture(() => {
      signal = body(newFrame(frame, size), st);
    });
    if (signal !== NORMAL) return signal;
    st.write(pyStr(filter(text, frame, st)));
    return NORMAL;
  };
}

function withBlock(values: ExprFn[], assigns: AssignFn[], body: StmtFn, size: number, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    const inner = newFrame(frame, size);
    for (let i = 0; i < assigns.length; i++) assigns[i]!(inner, st, values[i]!(frame, st));
    return body(inner, st);
  };
}

function scoped(body: StmtFn, size: number): StmtFn {
  return (frame, st) => body(newFrame(frame, size), st);
}

type ChainFn = (input: unknown, frame: Frame, st: RenderState) => unknown;

/** A `| f | g` chain applied to a captured block body (filter blocks, `{% set x | f %}`). */
function compileFilterChain(expr: Expr, cx: CompileContext): ChainFn {
  const rewrite = (e: Expr): Expr => {
    if (e.kind !== "filter") return e;
    return { ...e, node: e.node ? rewrite(e.node) : { kind: "input" } };
  };
  const rewritten = rewrite(expr);
  if (rewritten.kind !== "filter") return (input) => input;
  const fn = compileFilter(rewritten.name, compileExpr(rewritten.node!, cx), rewritten, cx);
  return (input, frame, st) => {
    st.filterInput = input;
    return fn(frame, st);
  };
}

function compileMacro(
  name: string,
  params: MacroParam[],
  stmts: Stmt[],
  used: MacroSpecialNames,
  cx: CompileContext,
): (defFrame: Frame) => PyCallable {
  const takesVarargs = used.has("varargs");
  const takesKwargs = used.has("kwargs");
  const takesCaller = used.has("caller");
  const scope = newScope(cx.scope);
  const paramNames = params.map((p) => p.name);
  const paramSlots: number[] = [];
  for (const param of paramNames) paramSlots.push(declare(scope, param));
  const varargsSlot = takesVarargs ? declare(scope, "varargs") : 0;
  const kwargsSlot = takesKwargs ? declare(scope, "kwargs") : 0;
  const callerSlot = takesCaller ? declare(scope, "caller") : 0;
  declareAssigned(stmts, scope);
  const inner = { reg: cx.reg, scope };
  const defaults: (ExprFn | null)[] = [];
  for (const param of params) defaults.push(param.default ? compileExpr(param.default, inner) : null);
  const body = compileBody(stmts, inner);
  const size = scope.slots.size;
  // Jinja2's Macro attributes.
  const attrs = {
    name,
    arguments: makeTuple(paramNames.slice()),
    catch_varargs: takesVarargs,
    catch_kwargs: takesKwargs,
    caller: takesCaller,
  };
  return (defFrame) =>
    new PyCallable(
      name,
      (args: unknown[], kwargs: Kwargs | null, st: RenderState) => {
        st.enter();
        try {
          const frame = newFrame(defFrame, size);
          const rest = kwargs === null ? null : dictUpdate(newDict(), kwargs);
          for (let i = 0; i < paramNames.length; i++) {
            const param = paramNames[i]!;
            const slot = paramSlots[i]!;
            if (i < args.length) {
              if (rest !== null && Object.hasOwn(rest, param)) {
                throw typeError(`macro '${name}' got multiple values for argument '${param}'`);
              }
              frame[slot] = args[i];
            } else if (rest !== null && Object.hasOwn(rest, param)) {
              frame[slot] = rest[param];
              dictDelete(rest, param);
            } else {
              const d = defaults[i];
              frame[slot] = d ? d(frame, st) : new Undefined(`parameter '${param}' was not provided`);
            }
          }
          if (rest !== null && Object.hasOwn(rest, "caller")) {
            if (!takesCaller) throw typeError(`macro '${name}' takes no keyword argument 'caller'`);
            frame[callerSlot] = rest.caller;
            dictDelete(rest, "caller");
          }
          const extra = args.length > paramNames.length ? args.slice(paramNames.length) : [];
          if (takesVarargs) frame[varargsSlot] = makeTuple(extra);
          else if (extra.length > 0) {
            throw typeError(`macro '${name}' takes not more than ${paramNames.length} argument(s)`);
          }
          const restKeys = rest === null ? [] : dictKeys(rest);
          if (takesKwargs) frame[kwargsSlot] = rest ?? newDict();
          else if (restKeys.length > 0) {
            throw typeError(`macro '${name}' takes no keyword argument '${restKeys[0]}'`);
          }
          return st.capture(() => body(frame, st));
        } finally {
          st.depth--;
        }
      },
      "macro",
      attrs,
    );
}

function compileFor(stmt: Extract<Stmt, { kind: "for" }>, cx: CompileContext): StmtFn {
  const line = stmt.line;
  const iter = compileExpr(stmt.iter, cx);
  const otherwise = compileBody(stmt.otherwise, cx);
  const scope = newScope(cx.scope);
  declareTarget(stmt.target, scope);
  const loopSlot = declare(scope, "loop");
  declareAssigned(stmt.body, scope);
  const inner = { reg: cx.reg, scope };
  const assign = compileAssign(stmt.target, inner);
  const filter = stmt.filter ? compileExpr(stmt.filter, inner) : null;
  const body = compileBody(stmt.body, inner);
  const size = scope.slots.size;
  const recursive = stmt.recursive;

  const run = (source: unknown, frame: Frame, st: RenderState, depth0: number): number => {
    let items = iterate(source);
    if (filter) {
      const kept: unknown[] = [];
      for (const item of items) {
        st.tick();
        const itemFrame = newFrame(frame, size);
        assign(itemFrame, st, item);
        if (truthy(filter(itemFrame, st))) kept.push(item);
      }
      items = kept;
    }
    if (items.length === 0) return otherwise(frame, st);
    const recurse = recursive
      ? (next: unknown) => {
          st.enter();
          try {
            return st.capture(() => run(next, frame, st, depth0 + 1));
          } finally {
            st.depth--;
          }
        }
      : null;
    const loop = new LoopContext(items, depth0, recurse);
    let completed = false;
    for (let i = 0; i < items.length; i++) {
      st.tick();
      const itemFrame = newFrame(frame, size);
      assign(itemFrame, st, items[i]);
      loop.index0 = i;
      itemFrame[loopSlot] = loop;
      const signal = body(itemFrame, st);
      if (signal === BREAK) break;
      if (signal === NORMAL) completed = true;
    }
    // Jinja2 marks the loop as iterated at the end of a body that ran through: after `break` or
    // `continue` in every iteration, the else block runs.
    return completed ? NORMAL : otherwise(frame, st);
  };

  return (frame, st) => {
    st.line = line;
    return run(iter(frame, st), frame, st, 0);
  };
}
