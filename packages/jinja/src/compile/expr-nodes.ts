import type { BinaryOperator } from "../ast/nodes.js";
import { getAttr, getItem, getSlice } from "../builtins/sandbox.js";
import { LimitExceededError } from "../errors.js";
import {
  add,
  compareValues,
  contains,
  div,
  eq,
  floorDiv,
  mod,
  mul,
  negate,
  plus,
  pow,
  sub,
} from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import type { Evaluator, Frame } from "../runtime/scope.js";
import type { RenderState } from "../runtime/state.js";
import { dictSetKey, isMapping, makeTuple, newDict, truthy, Undefined } from "../runtime/values.js";

/*
 * The evaluators expressions compile to (see Evaluator for why objects, not closures). Each holds only
 * what it uses at render time: never an AST node.
 */

export class Constant implements Evaluator {
  constructor(readonly value: unknown) {}
  ev(): unknown {
    return this.value;
  }
}

/** The input of a filter chain applied to a captured block (filter blocks, `{% set x | f %}`). */
export class FilterInput implements Evaluator {
  ev(_f: Frame, st: RenderState): unknown {
    return st.filterInput;
  }
}

export function evalAll(items: Evaluator[], f: Frame, st: RenderState): unknown[] {
  const values: unknown[] = [];
  for (let i = 0; i < items.length; i++) values.push(items[i]!.ev(f, st));
  return values;
}

export class ListLiteral implements Evaluator {
  constructor(
    readonly items: Evaluator[],
    readonly tuple: boolean,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const values = evalAll(this.items, f, st);
    return this.tuple ? makeTuple(values) : values;
  }
}

export class DictLiteral implements Evaluator {
  constructor(
    readonly keys: Evaluator[],
    readonly values: Evaluator[],
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const out = newDict();
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!.ev(f, st);
      dictSetKey(out, key, this.values[i]!.ev(f, st));
    }
    return out;
  }
}

/** `x.name` through the sandbox (names that are dict methods or unsafe). */
export class GetAttr implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly attr: string,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    return getAttr(this.obj.ev(f, st), this.attr);
  }
}

/** The common `message.role`: a dict key that cannot be a dict method, then the general path. */
export class GetKeyAttr implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly attr: string,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const o = this.obj.ev(f, st);
    if (isMapping(o) && Object.hasOwn(o, this.attr)) return o[this.attr];
    return getAttr(o, this.attr);
  }
}

/** `message['role']`: item first, then Python attribute, as jinja2's getitem. */
export class GetKeyItem implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly key: string,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const o = this.obj.ev(f, st);
    if (isMapping(o) && Object.hasOwn(o, this.key)) return o[this.key];
    return getItem(o, this.key);
  }
}

export class GetItem implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly key: Evaluator,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    return getItem(this.obj.ev(f, st), this.key.ev(f, st));
  }
}

export class Slice implements Evaluator {
  constructor(
    readonly obj: Evaluator,
    readonly start: Evaluator | null,
    readonly stop: Evaluator | null,
    readonly step: Evaluator | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    return getSlice(
      this.obj.ev(f, st),
      this.start?.ev(f, st) ?? null,
      this.stop?.ev(f, st) ?? null,
      this.step?.ev(f, st) ?? null,
    );
  }
}

/** Adds terms left to right, as the nested `(a + b) + c` does. */
export function addTerms(terms: Evaluator[], f: Frame, st: RenderState): unknown {
  let sum = terms[0]!.ev(f, st);
  for (let i = 1; i < terms.length; i++) sum = add(sum, terms[i]!.ev(f, st), st.limits);
  return sum;
}

/** `a + b + c + ...` (chat templates build each turn this way): one evaluator instead of one per `+`. */
export class Sum implements Evaluator {
  constructor(readonly terms: Evaluator[]) {}
  ev(f: Frame, st: RenderState): unknown {
    return addTerms(this.terms, f, st);
  }
}

function binary(op: BinaryOperator, a: unknown, b: unknown, st: RenderState): unknown {
  switch (op) {
    case "+":
      return add(a, b, st.limits);
    case "-":
      return sub(a, b);
    case "*":
      return mul(a, b, st.limits);
    case "/":
      return div(a, b);
    case "//":
      return floorDiv(a, b);
    case "%":
      return mod(a, b);
    case "**":
      return pow(a, b);
    case "~": {
      const text = (typeof a === "string" ? a : pyStr(a)) + (typeof b === "string" ? b : pyStr(b));
      if (text.length > st.limits.maxOutputLength) {
        throw new LimitExceededError("string exceeds the output limit");
      }
      return text;
    }
  }
}

export class Binary implements Evaluator {
  constructor(
    readonly op: BinaryOperator,
    readonly left: Evaluator,
    readonly right: Evaluator,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const a = this.left.ev(f, st);
    return binary(this.op, a, this.right.ev(f, st), st);
  }
}

export class Not implements Evaluator {
  constructor(readonly inner: Evaluator) {}
  ev(f: Frame, st: RenderState): unknown {
    return !truthy(this.inner.ev(f, st));
  }
}

export class Negate implements Evaluator {
  constructor(readonly inner: Evaluator) {}
  ev(f: Frame, st: RenderState): unknown {
    return negate(this.inner.ev(f, st));
  }
}

export class Plus implements Evaluator {
  constructor(readonly inner: Evaluator) {}
  ev(f: Frame, st: RenderState): unknown {
    return plus(this.inner.ev(f, st));
  }
}

export class And implements Evaluator {
  constructor(
    readonly left: Evaluator,
    readonly right: Evaluator,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const l = this.left.ev(f, st);
    return truthy(l) ? this.right.ev(f, st) : l;
  }
}

export class Or implements Evaluator {
  constructor(
    readonly left: Evaluator,
    readonly right: Evaluator,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const l = this.left.ev(f, st);
    return truthy(l) ? l : this.right.ev(f, st);
  }
}

export class Conditional implements Evaluator {
  constructor(
    readonly test: Evaluator,
    readonly whenTrue: Evaluator,
    readonly otherwise: Evaluator | null,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    if (truthy(this.test.ev(f, st))) return this.whenTrue.ev(f, st);
    if (this.otherwise !== null) return this.otherwise.ev(f, st);
    return new Undefined("the inline if-expression evaluated to false and no else section was defined.");
  }
}

export function compareOnce(op: string, a: unknown, b: unknown): boolean {
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

export class Compare implements Evaluator {
  constructor(
    readonly op: string,
    readonly left: Evaluator,
    readonly right: Evaluator,
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    const a = this.left.ev(f, st);
    return compareOnce(this.op, a, this.right.ev(f, st));
  }
}

/** `a < b < c`: each operand evaluated once, stopping at the first false comparison. */
export class CompareChain implements Evaluator {
  constructor(
    readonly ops: string[],
    readonly head: Evaluator,
    readonly operands: Evaluator[],
  ) {}
  ev(f: Frame, st: RenderState): unknown {
    let left = this.head.ev(f, st);
    for (let i = 0; i < this.ops.length; i++) {
      const right = this.operands[i]!.ev(f, st);
      if (!compareOnce(this.ops[i]!, left, right)) return false;
      left = right;
    }
    return true;
  }
}
