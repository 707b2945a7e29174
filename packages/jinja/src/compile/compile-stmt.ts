import type { Expr, MacroParam, MacroSpecialNames, Stmt, Target } from "../ast/nodes.js";
import { typeError } from "../runtime/operators.js";
import {
  compileLookup,
  declare,
  declareAssigned,
  declareTarget,
  type Evaluator,
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
  Undefined,
} from "../runtime/values.js";
import {
  type CompileContext,
  compileArgs,
  compileExpr,
  compileFilter,
  compileTerms,
} from "./compile-expr.js";
import {
  AssignAttribute,
  type Assigner,
  AssignName,
  BREAK_STMT,
  CallBlock,
  type ChainFn,
  CONTINUE_STMT,
  DefineMacro,
  EMPTY_BODY,
  type Executor,
  FilterBlock,
  ForLoop,
  IfElse,
  IfEqual,
  Print,
  PrintSum,
  Scoped,
  Sequence,
  SetBlock,
  SetName,
  SetValue,
  Unpack,
  WithBlock,
  WriteText,
} from "./stmt-nodes.js";

/** Compiles statements that run in `cx.scope` (whose assigned names must already be declared). */
export function compileBody(stmts: Stmt[], cx: CompileContext): Executor {
  // A loop, not `.map` with an arrow capturing `cx`: see compileEach.
  const compiled: Executor[] = [];
  for (const stmt of stmts) compiled.push(compileStmt(stmt, cx));
  if (compiled.length === 0) return EMPTY_BODY;
  if (compiled.length === 1) return compiled[0]!;
  return new Sequence(compiled);
}

/** A body with its own scope: returns the compiled body and the frame size it needs. */
function compileScoped(stmts: Stmt[], cx: CompileContext): { body: Executor; scope: ScopeInfo } {
  const scope = newScope(cx.scope);
  declareAssigned(stmts, scope);
  return { body: compileBody(stmts, { reg: cx.reg, scope }), scope };
}

/** Compiles an assignment to a target declared in `cx.scope`. */
function compileAssign(target: Target, cx: CompileContext): Assigner {
  if (target.kind === "name") return new AssignName(declare(cx.scope, target.name));
  if (target.kind === "tuple") {
    const parts: Assigner[] = [];
    for (const item of target.items) parts.push(compileAssign(item, cx));
    return new Unpack(parts);
  }
  return new AssignAttribute(compileLookup(target.name, cx.scope), target.attr);
}

/** Writes `text`: one executor per distinct text in a template (the same `\n` recurs). */
function compileWrite(text: string, cx: CompileContext): Executor {
  let write = cx.scope.texts.get(text);
  if (write === undefined) {
    write = new WriteText(text);
    cx.scope.texts.set(text, write);
  }
  return write;
}

/** Compiles one statement into its executor (stmt-nodes.ts). */
function compileStmt(stmt: Stmt, cx: CompileContext): Executor {
  switch (stmt.kind) {
    case "data":
      return compileWrite(stmt.text, cx);
    case "print":
      if (stmt.expr.kind === "const" && typeof stmt.expr.value === "string") {
        return compileWrite(stmt.expr.value, cx);
      }
      if (stmt.expr.kind === "binop" && stmt.expr.op === "+") {
        return new PrintSum(compileTerms(stmt.expr, cx), stmt.line);
      }
      return new Print(compileExpr(stmt.expr, cx), stmt.line);
    case "if":
      return compileIf(stmt, cx);
    case "for":
      return compileFor(stmt, cx);
    case "set":
      if (stmt.target.kind === "name") {
        return new SetName(compileExpr(stmt.expr, cx), declare(cx.scope, stmt.target.name), stmt.line);
      }
      return new SetValue(compileExpr(stmt.expr, cx), compileAssign(stmt.target, cx), stmt.line);
    case "setblock": {
      const { body, scope } = compileScoped(stmt.body, cx);
      const filter = stmt.filter ? compileFilterChain(stmt.filter, cx) : null;
      return new SetBlock(body, scope.slots.size, filter, compileAssign(stmt.target, cx), stmt.line);
    }
    case "macro": {
      const make = compileMacro(stmt.name, stmt.params, stmt.body, stmt.uses, cx);
      return new DefineMacro(make, declare(cx.scope, stmt.name));
    }
    case "callblock": {
      const call = stmt.call as Extract<Expr, { kind: "call" }>;
      const makeCaller = compileMacro("caller", stmt.params, stmt.body, stmt.uses, cx);
      const { pos, kw } = compileArgs(call, cx);
      return new CallBlock(compileExpr(call.callee, cx), pos, kw, makeCaller, stmt.line);
    }
    case "filterblock": {
      const { body, scope } = compileScoped(stmt.body, cx);
      return new FilterBlock(body, scope.slots.size, compileFilterChain(stmt.filter, cx), stmt.line);
    }
    case "with": {
      const values: Evaluator[] = [];
      for (const value of stmt.values) values.push(compileExpr(value, cx));
      const scope = newScope(cx.scope);
      for (const target of stmt.targets) declareTarget(target, scope);
      declareAssigned(stmt.body, scope);
      const inner = { reg: cx.reg, scope };
      const targets: Assigner[] = [];
      for (const target of stmt.targets) targets.push(compileAssign(target, inner));
      return new WithBlock(values, targets, compileBody(stmt.body, inner), scope.slots.size, stmt.line);
    }
    case "scope": {
      const { body, scope } = compileScoped(stmt.body, cx);
      return new Scoped(body, scope.slots.size);
    }
    case "break":
      return BREAK_STMT;
    case "continue":
      return CONTINUE_STMT;
  }
}

/**
 * `if`, with its test folded in where chat templates spend their ifs: `not x` swaps the branches, and
 * `a == b` / `a != b` compare in the if's own executor (one object fewer to reach in memory per if).
 */
function compileIf(stmt: Extract<Stmt, { kind: "if" }>, cx: CompileContext): Executor {
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
      ? new IfEqual(left, right, body, otherwise, stmt.line)
      : new IfEqual(left, right, otherwise, body, stmt.line);
  }
  const condition = compileExpr(test, cx);
  const body = compileBody(stmt.body, cx);
  const otherwise = compileBody(stmt.otherwise, cx);
  return negated
    ? new IfElse(condition, otherwise, body, stmt.line)
    : new IfElse(condition, body, otherwise, stmt.line);
}

/** A `| f | g` chain applied to a captured block body (filter blocks, `{% set x | f %}`). */
function compileFilterChain(expr: Expr, cx: CompileContext): ChainFn {
  const rewrite = (e: Expr): Expr => {
    if (e.kind !== "filter") return e;
    return { ...e, node: e.node ? rewrite(e.node) : { kind: "input" } };
  };
  const rewritten = rewrite(expr);
  if (rewritten.kind !== "filter") return (input) => input;
  const filter = compileFilter(rewritten.name, compileExpr(rewritten.node!, cx), rewritten, cx);
  return (input, frame, st) => {
    st.filterInput = input;
    return filter.ev(frame, st);
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
  const defaults: (Evaluator | null)[] = [];
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
              frame[slot] = d ? d.ev(frame, st) : new Undefined(`parameter '${param}' was not provided`);
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
          return st.capture(() => body.run(frame, st));
        } finally {
          st.depth--;
        }
      },
      "macro",
      attrs,
    );
}

function compileFor(stmt: Extract<Stmt, { kind: "for" }>, cx: CompileContext): Executor {
  const iter = compileExpr(stmt.iter, cx);
  const otherwise = compileBody(stmt.otherwise, cx);
  const scope = newScope(cx.scope);
  declareTarget(stmt.target, scope);
  const loopSlot = declare(scope, "loop");
  declareAssigned(stmt.body, scope);
  const inner = { reg: cx.reg, scope };
  const target = compileAssign(stmt.target, inner);
  const filter = stmt.filter ? compileExpr(stmt.filter, inner) : null;
  const body = compileBody(stmt.body, inner);
  const size = scope.slots.size;
  return new ForLoop(iter, target, filter, body, otherwise, size, loopSlot, stmt.recursive, stmt.line);
}
