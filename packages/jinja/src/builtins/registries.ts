import { TemplateRuntimeError } from "../errors.js";
import { iterate } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import type { RenderState } from "../runtime/state.js";
import { isUndefined, type Kwargs, PyGenerator, truthy } from "../runtime/values.js";
import { type FilterFn, type TestFn, table } from "./args.js";
import { PLAIN_FILTERS } from "./filters.js";
import { attrGetter } from "./sorting.js";
import { PLAIN_TESTS } from "./tests.js";

/*
 * The complete filter and test tables. A few builtins look other builtins up by name (`map('upper')`,
 * `select('odd')`, `'upper' is filter`), so they are defined here, after both plain tables, rather than
 * making filters.ts and tests.ts import each other.
 */

export const TESTS: Record<string, TestFn> = table<TestFn>({
  ...PLAIN_TESTS,
  filter: (v) => typeof v === "string" && Object.hasOwn(FILTERS, v),
  test: (v) => typeof v === "string" && Object.hasOwn(TESTS, v),
});

/** Jinja2's select/reject/map results are generators (computed here at once, yielded once). */
const generator = (items: unknown[], producer: string) => new PyGenerator(items, producer);

export const FILTERS: Record<string, FilterFn> = table<FilterFn>({
  ...PLAIN_FILTERS,
  map: (v, a, k, st) => generator(mapFilter(v, a, k, st), "sync_do_map"),
  reject: (v, a, k, st) => generator(selectOrReject(v, a, k, st, false, false), "select_or_reject"),
  rejectattr: (v, a, k, st) => generator(selectOrReject(v, a, k, st, true, false), "select_or_reject"),
  select: (v, a, k, st) => generator(selectOrReject(v, a, k, st, false, true), "select_or_reject"),
  selectattr: (v, a, k, st) => generator(selectOrReject(v, a, k, st, true, true), "select_or_reject"),
});

function mapFilter(value: unknown, args: unknown[], k: Kwargs | null, st: RenderState): unknown[] {
  const items = truthy(value) ? iterate(value) : [];
  if (args.length === 0 && k !== null && Object.hasOwn(k, "attribute")) {
    const dflt = Object.hasOwn(k, "default") ? k.default : undefined;
    const getter = attrGetter(k.attribute, (v) => (isUndefined(v) && dflt !== undefined ? dflt : v));
    return items.map(getter);
  }
  const name = pyStr(args[0]);
  const filter = FILTERS[name];
  if (filter === undefined)
    throw new TemplateRuntimeError(`No filter named '${name}'.`, "TemplateRuntimeError");
  const rest = args.slice(1);
  return items.map((item) => filter(item, rest, k, st));
}

/** select/reject/selectattr/rejectattr share this: a test by name, or truthiness. */
function selectOrReject(
  value: unknown,
  args: unknown[],
  k: Kwargs | null,
  st: RenderState,
  byAttribute: boolean,
  keep: boolean,
): unknown[] {
  let rest = args;
  let getter = (x: unknown) => x;
  if (byAttribute) {
    getter = attrGetter(rest[0]);
    rest = rest.slice(1);
  }
  let check: (x: unknown) => boolean = truthy;
  if (rest.length > 0) {
    const name = pyStr(rest[0]);
    const test = TESTS[name];
    if (test === undefined)
      throw new TemplateRuntimeError(`No test named '${name}'.`, "TemplateRuntimeError");
    const testArgs = rest.slice(1);
    check = (x) => test(x, testArgs, k, st);
  }
  // jinja2 only iterates a truthy value: `none | select(...)` is empty.
  if (!truthy(value)) return [];
  return iterate(value).filter((item) => check(getter(item)) === keep);
}
