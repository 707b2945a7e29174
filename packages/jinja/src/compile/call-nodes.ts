import { type FilterFn, NO_ARGS, type TestFn } from "../builtins/args.js";
import { callValue, findMethod, getAttr } from "../builtins/sandbox.js";
import { iterate, typeError } from "../runtime/operators.js";
import type { Evaluator, Frame } from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import { dictUpdate, isMapping, type Kwargs, newDict } from "../runtime/values.js";
import { evalAll } from "./expr-nodes.js";

/* The evaluators of calls (functions, methods, filters and tests) and of their arguments. */

/** Positional call arguments (with `*args`). */
export interface ArgList {
  values(f: Frame, st: RenderState): unknown[];
}

/** Keyword call arguments (with `**kwargs`). */
export interface KwargList {
  values(f: Frame, st: RenderState): Kwargs;
}

export const NO_ARG_LIST: ArgList = { values: () => NO_ARGS };

export class PositionalArgs implements ArgList {
  constructor(
    readonly items: Evaluator[],
    readonly spread: Evaluator | null,
  ) {}
  values(f: Frame, st: RenderState): unknown[] {
    const args = evalAll(this.items, f, st);
    if (this.spread !== null) args.push(...iterate(this.spread.ev(f, st)));
    return args;
  }
}

export class KeywordArgs implements KwargList {
  constructor(
    readonly names: string[],
    readonly items: Evaluator[],
    readonly spread: Evaluator | null,
  ) {}
  values(f: Frame, st: RenderState): Kwargs {
    const kwargs = newDict();
    for (let i = 0; i < this.names.length; i++) kwargs[this.names[i]!] = this.items[i]!.ev(f, st);
    if (this.spread !== null) {
      const extra = this.spread.ev(f, st);
      if (!isMapping(extra)) throw typeError("argument after ** must be a mapping");
      dictUpdate(kwargs, extra);
    }
    return kwargs;
  }
}

export class ApplyFilter implements Evaluator {
  constructor(
    readonly filter: FilterFn,
    readonly input: Evaluator,
    readonly pos: ArgList,
    readonly kw: KwargList | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const value = this.input.ev(f, st);
    st.stepOver(value);
    const a = this.pos.values(f, st);
    return this.filter(value, a, this.kw === null ? null : this.kw.values(f, st), st);
  }
}

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

export class ApplyTest implements Evaluator {
  constructor(
    readonly test: TestFn,
    readonly name: string,
    readonly arity: number,
    readonly value: Evaluator,
    readonly pos: ArgList,
    readonly kw: KwargList | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const v = this.value.ev(f, st);
    const a = this.pos.values(f, st);
    const k = this.kw === null ? null : this.kw.values(f, st);
    const given = a.length + (k === null ? 0 : Object.keys(k).length);
    if (given !== this.arity) throw testArityError(this.name, this.arity, given);
    return this.test(v, a, k, st);
  }
}

/** `x.method(...)`: calls Python methods directly instead of allocating a bound method. */
export class CallMethod implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly attr: string,
    readonly pos: ArgList,
    readonly kw: KwargList | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const self = this.obj.ev(f, st);
    st.stepOver(self);
    const method = findMethod(self, this.attr);
    const a = this.pos.values(f, st);
    const k = this.kw === null ? null : this.kw.values(f, st);
    if (method !== null) return method(self, a, k, st);
    return callValue(getAttr(self, this.attr), a, k, st);
  }
}

export class Call implements Evaluator {
  constructor(
    readonly callee: Evaluator,
    readonly pos: ArgList,
    readonly kw: KwargList | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const target = this.callee.ev(f, st);
    st.step();
    const a = this.pos.values(f, st);
    return callValue(target, a, this.kw === null ? null : this.kw.values(f, st), st);
  }
}
