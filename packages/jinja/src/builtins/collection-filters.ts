import { TemplateRuntimeError } from "../errors.js";
import { eq, iterate, add as pyAdd, typeError } from "../runtime/operators.js";
import { checkSizeCap, type RenderState } from "../runtime/state.js";
import {
  dictKeys,
  isMapping,
  isTuple,
  isUndefined,
  type Kwargs,
  makeTuple,
  num,
  PyFloat,
  PyGenerator,
  pythonKey,
  storageKey,
  truthy,
  typeName,
  Undefined,
} from "../runtime/values.js";
import { arg } from "./args.js";
import { attrGetter, ignoreCase, multiSortKey, sortBy, sortKey } from "./sorting.js";

/** Filters that reorder, group, split or aggregate sequences (jinja2's sort, groupby, batch, sum...). */

export function minMax(value: unknown, args: unknown[], k: Kwargs | null, wantMax: boolean): unknown {
  const caseSensitive = truthy(arg(args, k, 0, "case_sensitive", false));
  const attribute = arg(args, k, 1, "attribute", null);
  const items = iterate(value);
  if (items.length === 0) return new Undefined("No aggregated item, sequence was empty.");
  const cmpKey = sortKey(attribute, caseSensitive);
  const sorted = sortBy(items, cmpKey, false);
  if (!wantMax) return sorted[0];
  // max() returns the first maximal item, sorting is stable so scan from the end for the first equal key.
  const top = cmpKey(sorted[sorted.length - 1]);
  return sorted.find((x) => eq(cmpKey(x), top));
}

/** Jinja2's batch, slice and unique are generators: the arguments are read now, the value when read. */
export function batch(value: unknown, args: unknown[], k: Kwargs | null): PyGenerator {
  const size = num(arg(args, k, 0, "linecount") as number);
  const fill = arg(args, k, 1, "fill_with", null);
  return new PyGenerator(() => batchItems(value, size, fill), "do_batch");
}

function batchItems(value: unknown, size: number, fill: unknown): unknown[][] {
  // The fill is at most `size - 1` items: checked before any is made.
  if (fill !== null) checkSizeCap(size);
  const out: unknown[][] = [];
  let current: unknown[] = [];
  for (const item of iterate(value)) {
    if (current.length === size) {
      out.push(current);
      current = [];
    }
    current.push(item);
  }
  if (current.length > 0) {
    if (fill !== null) while (current.length < size) current.push(fill);
    out.push(current);
  }
  return out;
}

export function sliceFilter(value: unknown, args: unknown[], k: Kwargs | null, st: RenderState): PyGenerator {
  const slices = num(arg(args, k, 0, "slices") as number);
  const fill = arg(args, k, 1, "fill_with", null);
  return new PyGenerator(() => sliceItems(value, slices, fill, st), "sync_do_slice");
}

function sliceItems(value: unknown, slices: number, fill: unknown, st: RenderState): unknown[][] {
  const seq = iterate(value).slice();
  if (slices === 0) throw new TemplateRuntimeError("integer division or modulo by zero", "ZeroDivisionError");
  // One list per slice: counted (size and work) before any is made.
  st.checkSize(slices);
  st.step(slices);
  const perSlice = Math.floor(seq.length / slices);
  const withExtra = seq.length % slices;
  const out: unknown[][] = [];
  let offset = 0;
  for (let i = 0; i < slices; i++) {
    const start = offset + i * perSlice;
    if (i < withExtra) offset++;
    const end = offset + (i + 1) * perSlice;
    const part = seq.slice(start, end);
    if (fill !== null && i >= withExtra) part.push(fill);
    out.push(part);
  }
  return out;
}

export function groupby(value: unknown, args: unknown[], k: Kwargs | null): unknown[] {
  const attribute = arg(args, k, 0, "attribute");
  const dflt = arg(args, k, 1, "default", null);
  const caseSensitive = truthy(arg(args, k, 2, "case_sensitive", false));
  const raw = attrGetter(attribute, (v) => (isUndefined(v) && dflt !== null ? dflt : v));
  const key = (x: unknown) => (caseSensitive ? raw(x) : ignoreCase(raw(x)));
  const sorted = sortBy(iterate(value), key, false);
  const groups: unknown[] = [];
  let current: { key: unknown; grouper: unknown; list: unknown[] } | null = null;
  for (const item of sorted) {
    const kv = key(item);
    if (current === null || !eq(current.key, kv)) {
      current = { key: kv, grouper: raw(item), list: [] };
      groups.push(current);
    }
    current.list.push(item);
  }
  return groups.map((g) => {
    const c = g as { grouper: unknown; list: unknown[] };
    return namedGroup(c.grouper, c.list);
  });
}

/** groupby's namedtuple(grouper, list): a tuple whose fields are also reachable by name. */
function namedGroup(grouper: unknown, list: unknown[]): unknown[] {
  const t = makeTuple([grouper, list]);
  Object.defineProperty(t, "grouper", { value: grouper, enumerable: false });
  Object.defineProperty(t, "list", { value: list, enumerable: false });
  return t;
}

export function dictsort(value: unknown, args: unknown[], k: Kwargs | null): unknown[] {
  if (!isMapping(value)) throw typeError("dictsort filter requires a mapping");
  const caseSensitive = truthy(arg(args, k, 0, "case_sensitive", false));
  const by = arg(args, k, 1, "by", "key");
  const reverse = truthy(arg(args, k, 2, "reverse", false));
  if (by !== "key" && by !== "value")
    throw new TemplateRuntimeError("You can only sort by either 'key' or 'value'");
  const pairs = dictKeys(value).map((key) => makeTuple([pythonKey(value, key), value[key]]));
  const pos = by === "key" ? 0 : 1;
  return sortBy(pairs, (p) => (caseSensitive ? p[pos] : ignoreCase(p[pos])), reverse);
}

export function sortFilter(value: unknown, args: unknown[], k: Kwargs | null): unknown[] {
  const reverse = truthy(arg(args, k, 0, "reverse", false));
  const caseSensitive = truthy(arg(args, k, 1, "case_sensitive", false));
  const attribute = arg(args, k, 2, "attribute", null);
  return sortBy(iterate(value).slice(), multiSortKey(attribute, caseSensitive), reverse, true);
}

export function unique(value: unknown, args: unknown[], k: Kwargs | null): PyGenerator {
  const caseSensitive = truthy(arg(args, k, 0, "case_sensitive", false));
  const attribute = arg(args, k, 1, "attribute", null);
  const getKey = sortKey(attribute, caseSensitive);
  return new PyGenerator(() => uniqueItems(value, getKey), "sync_do_unique");
}

function uniqueItems(value: unknown, getKey: (item: unknown) => unknown): unknown[] {
  // A Python set in linear time: every hashable key by its dict storage key (1 == 1.0 == True as in
  // Python, ints past 2**53, tuples, None), NaN compared one by one.
  const hashed = new Set<string>();
  const others: unknown[] = [];
  const out: unknown[] = [];
  for (const item of iterate(value)) {
    const key = getKey(item);
    // The keys go in a Python set: lists and dicts are refused.
    if ((Array.isArray(key) && !isTuple(key)) || isMapping(key)) {
      throw typeError(`unhashable type: '${typeName(key)}'`);
    }
    const hash = hashKey(key);
    const seen = hash === null ? others.some((s) => eq(s, key)) : hashed.has(hash);
    if (!seen) {
      if (hash === null) others.push(key);
      else hashed.add(hash);
      out.push(item);
    }
  }
  return out;
}

/** A Python set's hash key: the dict storage key (1, True and 1.0 are one), none for NaN (never equal). */
function hashKey(key: unknown): string | null {
  if (typeof key === "number" && Number.isNaN(key)) return null;
  if (key instanceof PyFloat && Number.isNaN(key.value)) return null;
  return storageKey(key);
}

export function sum(value: unknown, args: unknown[], k: Kwargs | null, st: RenderState): unknown {
  const attribute = arg(args, k, 0, "attribute", null);
  let total = arg(args, k, 1, "start", 0);
  const getter = attribute === null ? (x: unknown) => x : attrGetter(attribute);
  for (const item of iterate(value)) total = pyAdd(total, getter(item), st.limits);
  return total;
}
