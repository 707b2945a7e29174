import { LoopContext } from "../runtime/loop.js";
import { compareValues, contains, eq, mod } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import {
  isMapping,
  isUndefined,
  Markup,
  PyBytes,
  PyCallable,
  PyFloat,
  PyGenerator,
} from "../runtime/values.js";
import { type TestFn, table } from "./args.js";
import { HAS_LOWER, HAS_LOWER_OR_TITLE, HAS_UPPER, HAS_UPPER_OR_TITLE } from "./methods.js";

const text = (v: unknown): string | null => (typeof v === "string" ? v : v instanceof Markup ? v.text : null);

/** Every test but `filter` and `test`, which look names up (builtins/registries.ts adds them). */
export const PLAIN_TESTS: Record<string, TestFn> = table<TestFn>({
  boolean: (v) => typeof v === "boolean",
  // jinja2's Undefined defines __call__ (calling it raises), so it counts as callable.
  callable: (v) =>
    v instanceof PyCallable || (v instanceof LoopContext && v.recurse !== null) || isUndefined(v),
  defined: (v) => !isUndefined(v),
  undefined: (v) => isUndefined(v),
  divisibleby: (v, a) => eq(mod(v, a[0]), 0),
  eq: (v, a) => eq(v, a[0]),
  equalto: (v, a) => eq(v, a[0]),
  "==": (v, a) => eq(v, a[0]),
  ne: (v, a) => !eq(v, a[0]),
  "!=": (v, a) => !eq(v, a[0]),
  escaped: (v) => v instanceof Markup,
  even: (v) => eq(mod(v, 2), 0),
  odd: (v) => eq(mod(v, 2), 1),
  false: (v) => v === false,
  true: (v) => v === true,
  float: (v) => v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v)),
  integer: (v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint",
  number: (v) =>
    typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v instanceof PyFloat,
  ge: (v, a) => compareValues(v, a[0], "ge") >= 0,
  ">=": (v, a) => compareValues(v, a[0], "ge") >= 0,
  gt: (v, a) => compareValues(v, a[0], "gt") > 0,
  ">": (v, a) => compareValues(v, a[0], "gt") > 0,
  greaterthan: (v, a) => compareValues(v, a[0], "gt") > 0,
  le: (v, a) => compareValues(v, a[0], "le") <= 0,
  "<=": (v, a) => compareValues(v, a[0], "le") <= 0,
  lt: (v, a) => compareValues(v, a[0], "lt") < 0,
  "<": (v, a) => compareValues(v, a[0], "lt") < 0,
  lessthan: (v, a) => compareValues(v, a[0], "lt") < 0,
  in: (v, a) => contains(a[0], v),
  iterable: (v) =>
    typeof v === "string" ||
    Array.isArray(v) ||
    isMapping(v) ||
    isUndefined(v) ||
    v instanceof Markup ||
    v instanceof PyBytes ||
    v instanceof PyGenerator,
  sequence: (v) =>
    typeof v === "string" ||
    Array.isArray(v) ||
    isMapping(v) ||
    v instanceof Markup ||
    v instanceof PyBytes ||
    isUndefined(v),
  mapping: (v) => isMapping(v),
  none: (v) => v === null,
  string: (v) => typeof v === "string" || v instanceof Markup,
  lower: (v) => {
    const t = text(v) ?? pyStr(v);
    return HAS_LOWER().test(t) && !HAS_UPPER_OR_TITLE().test(t);
  },
  upper: (v) => {
    const t = text(v) ?? pyStr(v);
    return HAS_UPPER().test(t) && !HAS_LOWER_OR_TITLE().test(t);
  },
  sameas: (v, a) => v === a[0] || (isUndefined(v) && isUndefined(a[0]) && v === a[0]),
});
