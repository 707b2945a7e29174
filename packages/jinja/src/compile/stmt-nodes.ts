import { callValue } from "../builtins/sandbox.js";
import { TemplateRuntimeError } from "../errors.js";
import { LoopContext } from "../runtime/loop.js";
import { eq, iterate } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import { type Evaluator, type Frame, newFrame } from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import { dictSet, type Kwargs, Namespace, newDict, type PyCallable, truthy } from "../runtime/values.js";
import type { ArgList, KwargList } from "./call-nodes.js";
import { addTerms } from "./expr-nodes.js";

/*
 * The executors statements compile to: objects, not closures, for the reason given at Evaluator. Each
 * holds only what it uses at render time.
 */

/** Executors return a control signal so `break`/`continue` need no exceptions. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;

export interface Executor {
  run(frame: Frame, st: RenderState): number;
}

class Signal implements Executor {
  constructor(readonly signal: number) {}
  run(): number {
    return this.signal;
  }
}

// Shared by every template.
export const EMPTY_BODY: Executor = new Signal(NORMAL);
export const BREAK_STMT: Executor = new Signal(BREAK);
export const CONTINUE_STMT: Executor = new Signal(CONTINUE);

export class Sequence implements Executor {
  constructor(readonly stmts: Executor[]) {}
  run(frame: Frame, st: RenderState): number {
    const stmts = this.stmts;
    for (let i = 0; i < stmts.length; i++) {
      const signal = stmts[i]!.run(frame, st);
      if (signal !== NORMAL) return signal;
    }
    return NORMAL;
  }
}

/** Assigns a value to a target (`x`, `a, b`, `ns.attr`). */
export interface Assigner {
  assign(frame: Frame, st: RenderState, value: unknown): void;
}

export class AssignName implements Assigner {
  constructor(readonly slot: number) {}
  assign(frame: Frame, _st: RenderState, value: unknown): void {
    frame[this.slot] = value;
  }
}

export class Unpack implements Assigner {
  constructor(readonly parts: Assigner[]) {}
  assign(frame: Frame, st: RenderState, value: unknown): void {
    const want = this.parts.length;
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
    for (let i = 0; i < want; i++) this.parts[i]!.assign(frame, st, items[i]);
  }
}

export class AssignAttribute implements Assigner {
  constructor(
    readonly namespace: Evaluator,
    readonly attr: string,
  ) {}
  assign(frame: Frame, st: RenderState, value: unknown): void {
    const ns = this.namespace.ev(frame, st);
    if (!(ns instanceof Namespace)) {
      throw new TemplateRuntimeError(
        "cannot assign attribute on non-namespace object",
        "TemplateRuntimeError",
      );
    }
    dictSet(ns.attrs, this.attr, value);
  }
}

export class WriteText implements Executor {
  constructor(readonly text: string) {}
  run(_frame: Frame, st: RenderState): number {
    st.write(this.text);
    return NORMAL;
  }
}

export class Print implements Executor {
  constructor(
    readonly expr: Evaluator,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const v = this.expr.ev(frame, st);
    st.write(typeof v === "string" ? v : pyStr(v));
    return NORMAL;
  }
}

/** `{{ a + b + ... }}`: the sum and the print in one executor (see compileTerms). */
export class PrintSum implements Executor {
  constructor(
    readonly terms: Evaluator[],
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const v = addTerms(this.terms, frame, st);
    st.write(typeof v === "string" ? v : pyStr(v));
    return NORMAL;
  }
}

export class IfEqual implements Executor {
  constructor(
    readonly left: Evaluator,
    readonly right: Evaluator,
    readonly whenEqual: Executor,
    readonly otherwise: Executor,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const a = this.left.ev(frame, st);
    return eq(a, this.right.ev(frame, st)) ? this.whenEqual.run(frame, st) : this.otherwise.run(frame, st);
  }
}

export class IfElse implements Executor {
  constructor(
    readonly test: Evaluator,
    readonly body: Executor,
    readonly otherwise: Executor,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    return truthy(this.test.ev(frame, st)) ? this.body.run(frame, st) : this.otherwise.run(frame, st);
  }
}

export class SetName implements Executor {
  constructor(
    readonly expr: Evaluator,
    readonly slot: number,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    frame[this.slot] = this.expr.ev(frame, st);
    return NORMAL;
  }
}

export class SetValue implements Executor {
  constructor(
    readonly expr: Evaluator,
    readonly target: Assigner,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    this.target.assign(frame, st, this.expr.ev(frame, st));
    return NORMAL;
  }
}

export type ChainFn = (input: unknown, frame: Frame, st: RenderState) => unknown;

/** Runs `body` in a new frame of `size` slots, capturing its output; the signal it ended with comes first. */
function captureBody(body: Executor, size: number, frame: Frame, st: RenderState): [number, string] {
  let signal = NORMAL;
  const text = st.capture(() => {
    signal = body.run(newFrame(frame, size), st);
  });
  return [signal, text];
}

export class SetBlock implements Executor {
  constructor(
    readonly body: Executor,
    readonly size: number,
    readonly filter: ChainFn | null,
    readonly target: Assigner,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const [signal, text] = captureBody(this.body, this.size, frame, st);
    // `break`/`continue` inside the block leave the loop before the assignment, as in Jinja2.
    if (signal !== NORMAL) return signal;
    this.target.assign(frame, st, this.filter ? this.filter(text, frame, st) : text);
    return NORMAL;
  }
}

export class FilterBlock implements Executor {
  constructor(
    readonly body: Executor,
    readonly size: number,
    readonly filter: ChainFn,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const [signal, text] = captureBody(this.body, this.size, frame, st);
    if (signal !== NORMAL) return signal;
    st.write(pyStr(this.filter(text, frame, st)));
    return NORMAL;
  }
}

export class DefineMacro implements Executor {
  constructor(
    readonly make: (defFrame: Frame) => PyCallable,
    readonly slot: number,
  ) {}
  run(frame: Frame): number {
    frame[this.slot] = this.make(frame);
    return NORMAL;
  }
}

export class CallBlock implements Executor {
  constructor(
    readonly callee: Evaluator,
    readonly pos: ArgList,
    readonly kw: KwargList | null,
    readonly makeCaller: (defFrame: Frame) => PyCallable,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const fn = this.callee.ev(frame, st);
    const a = this.pos.values(frame, st);
    const kwargs: Kwargs = this.kw === null ? newDict() : this.kw.values(frame, st);
    kwargs.caller = this.makeCaller(frame);
    st.write(pyStr(callValue(fn, a, kwargs, st)));
    return NORMAL;
  }
}

export class WithBlock implements Executor {
  constructor(
    readonly values: Evaluator[],
    readonly targets: Assigner[],
    readonly body: Executor,
    readonly size: number,
    readonly line: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    const inner = newFrame(frame, this.size);
    for (let i = 0; i < this.targets.length; i++) {
      this.targets[i]!.assign(inner, st, this.values[i]!.ev(frame, st));
    }
    return this.body.run(inner, st);
  }
}

export class Scoped implements Executor {
  constructor(
    readonly body: Executor,
    readonly size: number,
  ) {}
  run(frame: Frame, st: RenderState): number {
    return this.body.run(newFrame(frame, this.size), st);
  }
}

/** `{% for %}`: one executor per loop statement; `recursive` loops re-enter `loop` one level deeper. */
export class ForLoop implements Executor {
  constructor(
    readonly iter: Evaluator,
    readonly target: Assigner,
    readonly filter: Evaluator | null,
    readonly body: Executor,
    readonly otherwise: Executor,
    readonly size: number,
    readonly loopSlot: number,
    readonly recursive: boolean,
    readonly line: number,
  ) {}

  run(frame: Frame, st: RenderState): number {
    st.line = this.line;
    return this.loop(this.iter.ev(frame, st), frame, st, 0);
  }

  private loop(source: unknown, frame: Frame, st: RenderState, depth0: number): number {
    const { target, filter, body, size } = this;
    let items = iterate(source);
    if (filter) {
      const kept: unknown[] = [];
      for (const item of items) {
        st.tick();
        const itemFrame = newFrame(frame, size);
        target.assign(itemFrame, st, item);
        if (truthy(filter.ev(itemFrame, st))) kept.push(item);
      }
      items = kept;
    }
    if (items.length === 0) return this.otherwise.run(frame, st);
    const recurse = this.recursive
      ? (next: unknown) => {
          st.enter();
          try {
            return st.capture(() => this.loop(next, frame, st, depth0 + 1));
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
      target.assign(itemFrame, st, items[i]);
      loop.index0 = i;
      itemFrame[this.loopSlot] = loop;
      const signal = body.run(itemFrame, st);
      if (signal === BREAK) break;
      if (signal === NORMAL) completed = true;
    }
    // Jinja2 marks the loop as iterated at the end of a body that ran through: after `break` or
    // `continue` in every iteration, the else block runs.
    return completed ? NORMAL : this.otherwise.run(frame, st);
  }
}
