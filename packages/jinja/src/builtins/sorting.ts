import { compareValues, eq } from "../runtime/operators.js";
import { chargeWork } from "../runtime/state.js";
import { Markup } from "../runtime/values.js";
import { getItem } from "./sandbox.js";

/** jinja2's make_attrgetter: "a.b.0" walks attributes/items; integer parts index. */
export function attrGetter(
  attribute: unknown,
  postprocess?: (v: unknown) => unknown,
): (item: unknown) => unknown {
  const parts =
    typeof attribute === "string"
      ? attribute.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p))
      : [attribute];
  return (item) => {
    let v = item;
    for (const part of parts) v = getItem(v, part);
    return postprocess ? postprocess(v) : v;
  };
}

/** Lower-cases strings for case-insensitive comparisons (jinja2's ignore_case). */
export function ignoreCase(v: unknown): unknown {
  if (typeof v === "string") return v.toLowerCase();
  if (v instanceof Markup) return v.text.toLowerCase();
  return v;
}

/**
 * Stable sort by a key, using Python ordering (raises TypeError on unorderable keys). `keysInLists`: the
 * keys are compared as jinja2's sort filter compares its one-item key lists, so equal keys never need
 * ordering.
 */
export function sortBy<T>(items: T[], key: (item: T) => unknown, reverse: boolean, keysInLists = false): T[] {
  // About n log n Python comparisons, 8 to a step.
  chargeWork((items.length * Math.log2(items.length + 1)) / 8);
  const keyed = items.map((item, index) => ({ item, index, key: key(item) }));
  keyed.sort((a, b) => {
    const c = keysInLists && eq(a.key, b.key) ? 0 : compareValues(a.key, b.key);
    if (c !== 0 && !Number.isNaN(c)) return reverse ? -c : c;
    return a.index - b.index;
  });
  return keyed.map((k) => k.item);
}

/**
 * The key of jinja2's sort filter (make_multi_attrgetter): `attribute` split on commas, each part an
 * attribute path, the key the list of their values. Python compares such lists item by item (`==`
 * first, then `<`), so later attributes only break ties. One attribute (or none) gives its value alone,
 * for sortBy's `keysInLists` to compare as the one-item list.
 */
export function multiSortKey(attribute: unknown, caseSensitive: boolean): (item: unknown) => unknown {
  if (typeof attribute !== "string" || !attribute.includes(",")) return sortKey(attribute, caseSensitive);
  const getters = attribute
    .split(",")
    .map((part) => attrGetter(part, caseSensitive ? undefined : ignoreCase));
  return (item) => getters.map((get) => get(item));
}

/** The comparison key of jinja2's sort/unique/min/max: an attribute (or the item itself), case-folded unless asked. */
export function sortKey(attribute: unknown, caseSensitive: boolean): (item: unknown) => unknown {
  const getter = attribute === null ? (x: unknown) => x : attrGetter(attribute);
  return caseSensitive ? getter : (x) => ignoreCase(getter(x));
}
