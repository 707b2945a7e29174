import type { Expr, MacroParam, MacroSpecialNames, Stmt, Target } from "../ast/nodes.js";
import { LoopContext } from "../runtime/loop.js";
import { iterate, typeError } from "../runtime/operators.js";
import {
  compileLookup,
  declare,
  declareAssigned,
  declareTarget,
  type Frame,
  newFrame,
  newScope,
  type ScopeInfo,
} from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import {
  dictDelete,
  dictKeys,
  dictUpdate,
  type Kwargs,
  makeTuple,
  newDict,
  PyCallable,
  truthy,
  Undefined,
} from "../runtime/values.js";
import {
  type CompileContext,
  compileArgs,
  compileExpr,
  compileFilter,
  compileTerms,
  type ExprFn,
} from "./compile-expr.js";
import {
  type AssignFn,
  assignAttribute,
  assignName,
  BREAK,
  BREAK_STMT,
  type ChainFn,
  CONTINUE_STMT,
  callBlock,
  defineMacro,
  EMPTY_BODY,
  filterBlock,
  ifElse,
  ifEqual,
  NORMAL,
  printSum,
  printValue,
  runAll,
  type StmtFn,
  scoped,
  setBlock,
  setName,
  setValue,
  unpack,
  withBlock,
  writeText,
} from "./stmt-closures.js";

/** Compiles statements that run in `cx.scope` (whose assigned names must already be declared). */
export function compileBody(stmts: Stmt[], cx: CompileContext): StmtFn {
  // A loop, not `.map` with an arrow capturing `cx`: see compileEach.
  const fns: StmtFn[] = [];
  for (const stmt of stmts) fns.push(compileStmt(stmt, cx));
  if (fns.length === 0) return EMPTY_BODY;
  if (fns.length === 1) return fns[0]!;
  return runAll(fns);
}

/** A body with its own scope: returns the compiled body and the frame size it needs. */
function compileScoped(stmts: Stmt[], cx: CompileContext): { body: StmtFn; scope: ScopeInfo } {
  const scope = newScope(cx.scope);
  declareAssigned(stmts, scope);
  return { body: compileBody(stmts, { reg: cx.reg, scope }), scope };
}

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

/** Compiles one statement (its closure is made in stmt-closures.ts: see there why). */
function compileStmt(stmt: Stmt, cx: CompileContext): StmtFn {
  switch (stmt.kind) {
    case "data":
      return writeText(stmt.text);
    case "print":
      if (stmt.expr.kind === "const" && typeof stmt.expr.value === "string")
        return writeText(stmt.expr.value);
      if (stmt.expr.kind === "binop" && stmt.expr.op === "+") {
        return printSum(compileTerms(stmt.expr, cx), stmt.line);
      }
      return printValue(compileExpr(stmt.expr, cx), stmt.line);
    case "if":
      return compileIf(stmt, cx);
    case "for":
      return compileFor(stmt, cx);
    case "set":
      if (stmt.target.kind === "name") {
        return setName(compileExpr(stmt.expr, cx), declare(cx.scope, stmt.target.name), stmt.line);
      }
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
      return BREAK_STMT;
    case "continue":
      return CONTINUE_STMT;
  }
}

/**
 * `if`, with its test folded in where chat templates spend their ifs: `not x` swaps the branches, and
 * `a == b` / `a != b` compare in the if's own closure (one closure fewer to reach in memory per if).
 */
function compileIf(stmt: Extract<Stmt, { kind: "if" }>, cx: CompileContext): StmtFn {
  let test = stmt.test;
  let negated = false;
  while (test.kind === "unary" && test.op === "not") {
    test = test.node;
    negated = !negated;
  }
  if (
    test.kind === "compare" &&
    test.ops.length === 1 &&
    (test.ops[0]![0] === "==" || test.ops[0]![0] === "!=")
  ) {
    const left = compileExpr(test.first, cx);
    const right = compileExpr(test.ops[0]![1], cx);
    const body = compileBody(stmt.body, cx);
    const otherwise = compileBody(stmt.otherwise, cx);
    const equalRunsBody = (test.ops[0]![0] === "==") !== negated;
    return equalRunsBody
      ? ifEqual(left, right, body, otherwise, stmt.line)
      : ifEqual(left, right, otherwise, body, stmt.line);
  }
  const condition = compileExpr(test, cx);
  const body = compileBody(stmt.body, cx);
  const otherwise = compileBody(stmt.otherwise, cx);
  return negated
    ? ifElse(condition, otherwise, body, stmt.line)
    : ifElse(condition, body, otherwise, stmt.line);
}

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
