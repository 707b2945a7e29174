import { callValue } from "../builtins/sandbox.js";
import { TemplateRuntimeError } from "../errors.js";
import { eq, iterate } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import { type Frame, type LookupFn, newFrame } from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import { dictSet, type Kwargs, Namespace, newDict, type PyCallable, truthy } from "../runtime/values.js";
import { type ArgsFns, addTerms, type ExprFn } from "./compile-expr.js";

/*
 * The closures statements compile to, each made by a function of its own that captures only what the
 * closure uses: V8 gives the closures made in one call of a function one shared context, so closures made
 * in compileStmt's big switch would each keep (and walk through at render time) a context holding the
 * whole statement and its AST.
 */

/** Statement closures return a control signal so `break`/`continue` need no exceptions. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export type StmtFn = (frame: Frame, st: RenderState) => number;

// Shared by every template (a closure less per `if` without `else`, per `break`).
export const EMPTY_BODY: StmtFn = () => NORMAL;
export const BREAK_STMT: StmtFn = () => BREAK;
export const CONTINUE_STMT: StmtFn = () => CONTINUE;

export function runAll(fns: StmtFn[]): StmtFn {
  return (frame, st) => {
    for (let i = 0; i < fns.length; i++) {
      const signal = fns[i]!(frame, st);
      if (signal !== NORMAL) return signal;
    }
    return NORMAL;
  };
}

export type AssignFn = (frame: Frame, st: RenderState, value: unknown) => void;

export function assignName(slot: number): AssignFn {
  return (frame, _st, value) => {
    frame[slot] = value;
  };
}

export function unpack(parts: AssignFn[]): AssignFn {
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

export function assignAttribute(lookup: LookupFn, attr: string): AssignFn {
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

export function writeText(text: string): StmtFn {
  return (_frame, st) => {
    st.write(text);
    return NORMAL;
  };
}

export function printValue(expr: ExprFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    const v = expr(frame, st);
    st.write(typeof v === "string" ? v : pyStr(v));
    return NORMAL;
  };
}

/** `{{ a + b + ... }}`: the sum and the print in one closure (see compileTerms). */
export function printSum(terms: ExprFn[], line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    const v = addTerms(terms, frame, st);
    st.write(typeof v === "string" ? v : pyStr(v));
    return NORMAL;
  };
}

export function ifEqual(
  left: ExprFn,
  right: ExprFn,
  whenEqual: StmtFn,
  otherwise: StmtFn,
  line: number,
): StmtFn {
  return (frame, st) => {
    st.line = line;
    return eq(left(frame, st), right(frame, st)) ? whenEqual(frame, st) : otherwise(frame, st);
  };
}

export function ifElse(test: ExprFn, body: StmtFn, otherwise: StmtFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    return truthy(test(frame, st)) ? body(frame, st) : otherwise(frame, st);
  };
}

export function setName(expr: ExprFn, slot: number, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    frame[slot] = expr(frame, st);
    return NORMAL;
  };
}

export function setValue(expr: ExprFn, assign: AssignFn, line: number): StmtFn {
  return (frame, st) => {
    st.line = line;
    assign(frame, st, expr(frame, st));
    return NORMAL;
  };
}

export function setBlock(
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

export function defineMacro(make: (defFrame: Frame) => PyCallable, slot: number): StmtFn {
  return (frame) => {
    frame[slot] = make(frame);
    return NORMAL;
  };
}

export function callBlock(
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

export function filterBlock(body: StmtFn, size: number, filter: ChainFn, line: number): StmtFn {
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

export function withBlock(
  values: ExprFn[],
  assigns: AssignFn[],
  body: StmtFn,
  size: number,
  line: number,
): StmtFn {
  return (frame, st) => {
    st.line = line;
    const inner = newFrame(frame, size);
    for (let i = 0; i < assigns.length; i++) assigns[i]!(inner, st, values[i]!(frame, st));
    return body(inner, st);
  };
}

export function scoped(body: StmtFn, size: number): StmtFn {
  return (frame, st) => body(newFrame(frame, size), st);
}

export type ChainFn = (input: unknown, frame: Frame, st: RenderState) => unknown;
