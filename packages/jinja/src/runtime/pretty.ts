import { compareValues } from "./operators.js";
import { pyRepr, reprString } from "./printing.js";
import { chargeConversion, checkSizeCap, sizeCap } from "./state.js";
import { isMapping, isTuple, pythonKey, rangeBounds, typeName } from "./values.js";

const WIDTH = 80;

/**
 * Python's repr() with dict keys sorted, as pprint's safe repr writes it; checked against the render's
 * size cap as it grows, and charged to its steps (pformat repeats it at every level).
 */
function sortedRepr(v: unknown): string {
  const text = sortedReprWithin(v, sizeCap());
  chargeConversion(text.length);
  return text;
}

function sortedReprWithin(v: unknown, cap: number): string {
  if (Array.isArray(v) && rangeBounds(v) === undefined) {
    const parts: string[] = new Array(v.length);
    let length = 2;
    for (let i = 0; i < v.length; i++) {
      parts[i] = sortedReprWithin(v[i], cap);
      length += parts[i]!.length + 2;
      if (length > cap) checkSizeCap(length);
    }
    const inner = parts.join(", ");
    if (!isTuple(v)) return `[${inner}]`;
    return v.length === 1 ? `(${inner},)` : `(${inner})`;
  }
  if (isMapping(v)) {
    const keys = sortedKeys(v);
    const parts: string[] = new Array(keys.length);
    let length = 2;
    for (let i = 0; i < keys.length; i++) {
      parts[i] = `${keyRepr(v, keys[i]!)}: ${sortedReprWithin(v[keys[i]!], cap)}`;
      length += parts[i]!.length + 2;
      if (length > cap) checkSizeCap(length);
    }
    return `{${parts.join(", ")}}`;
  }
  return pyRepr(v);
}

/** A dict's stored keys in pprint's order: sorted by key; keys of types that do not order by type name. */
function sortedKeys(d: Record<string, unknown>): string[] {
  const keys = Object.keys(d);
  if (!keys.some((k) => k.charCodeAt(0) === 0)) return keys.sort();
  return keys.sort((a, b) => {
    const x = pythonKey(d, a);
    const y = pythonKey(d, b);
    try {
      return compareValues(x, y);
    } catch {
      const tx = typeName(x);
      const ty = typeName(y);
      return tx < ty ? -1 : tx > ty ? 1 : 0;
    }
  });
}

function keyRepr(d: Record<string, unknown>, stored: string): string {
  return stored.charCodeAt(0) === 0 ? pyRepr(pythonKey(d, stored)) : reprString(stored);
}

/** Python's pprint.pformat(value) (width 80, sorted dicts, one item per line when too wide). */
export function pformat(v: unknown, indent = 0, allowance = 0): string {
  const rep = sortedRepr(v);
  if (rep.length <= WIDTH - indent - allowance) return rep;
  if (isMapping(v)) {
    const keys = sortedKeys(v);
    if (keys.length === 0) return rep;
    const inner = indent + 1;
    let out = "{";
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const keyRep = keyRepr(v, key);
      out += `${keyRep}: ${pformat(v[key], inner + keyRep.length + 2, last ? allowance + 1 : 1)}`;
      if (!last) out += `,\n${" ".repeat(inner)}`;
    });
    return `${out}}`;
  }
  if (Array.isArray(v) && v.length > 0 && rangeBounds(v) === undefined) {
    const tuple = isTuple(v);
    const inner = indent + 1;
    let out = tuple ? "(" : "[";
    v.forEach((item, i) => {
      const last = i === v.length - 1;
      out += pformat(item, inner, last ? allowance + 1 : 1);
      if (!last) out += `,\n${" ".repeat(inner)}`;
    });
    if (tuple && v.length === 1) out += ",";
    return out + (tuple ? ")" : "]");
  }
  return rep;
}
