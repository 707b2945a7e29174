import { SecurityError, TemplateRuntimeError } from "../errors.js";
import { LoopContext } from "../runtime/loop.js";
import {
  escapeArg,
  escapeHtml,
  MARKUP_ESCAPING_METHODS,
  MARKUP_SPLITTING_METHODS,
  markResult,
} from "../runtime/markup.js";
import { failIfUndefined, typeError } from "../runtime/operators.js";
import { pyRepr } from "../runtime/printing.js";
import type { RenderState } from "../runtime/state.js";
import {
  codePoints,
  isMapping,
  isTuple,
  isUndefined,
  type Kwargs,
  Markup,
  makeRange,
  makeTuple,
  Namespace,
  PyBytes,
  PyCallable,
  rangeBounds,
  storageKey,
  typeName,
  Undefined,
  viewName,
} from "../runtime/values.js";
import { type Method, table } from "./args.js";
import { BYTES_METHODS } from "./codecs.js";
import { DICT_METHODS, LIST_METHODS, strMethods, UNSAFE_METHODS } from "./methods.js";
import { formatMethods } from "./str-format.js";

/**
 * What a template may touch. Every attribute, item and call in a template goes through here:
 * - plain objects/arrays/strings expose only their own data plus the Python methods in builtins/methods.ts;
 * - no prototype, constructor or JS function is ever returned; raw JS functions are never callable;
 * - Python's mutating methods (append, update, ...) are refused as ImmutableSandboxedEnvironment does.
 */

function objectLabel(obj: unknown): string {
  return obj === null ? "'None'" : `'${typeName(obj)} object'`;
}

function missingAttr(obj: unknown, name: string): Undefined {
  return new Undefined(`${objectLabel(obj)} has no attribute '${name}'`);
}

function bound(self: unknown, name: string, method: Method): PyCallable {
  return new PyCallable(name, (args, kwargs, st) => method(self, args, kwargs, st!), "method");
}

let strMethodTable: Record<string, Method> | undefined;

/** str's methods: builtins/methods.ts's, plus format and format_map, whose fields read through getAttr/getItem. */
function strMethodsWithFormat(): Record<string, Method> {
  strMethodTable ??= table<Method>({ ...strMethods(), ...formatMethods({ getAttr, getItem }) });
  return strMethodTable;
}

function methodTableFor(obj: unknown): Record<string, Method> | null {
  if (typeof obj === "string" || obj instanceof Markup) return strMethodsWithFormat();
  if (Array.isArray(obj)) return LIST_METHODS;
  if (obj instanceof PyBytes) return BYTES_METHODS;
  if (isMapping(obj)) return DICT_METHODS;
  return null;
}

/** The Python method `obj.name`, or null; used by calls so `x.strip()` needs no bound-method object. */
export function findMethod(obj: unknown, name: string): Method | null {
  const table = methodTableFor(obj);
  if (table === null) return null;
  const method = table[name];
  if (method === undefined) return null;
  if ((isTuple(obj) || rangeBounds(obj) !== undefined) && name !== "index" && name !== "count") return null;
  if (obj instanceof Markup) return markupMethod(name, method);
  return method;
}

/** Markup's versions of str methods: escaped arguments, results marked safe. */
function markupMethod(name: string, method: Method): Method {
  if (MARKUP_ESCAPING_METHODS.has(name)) {
    return (self, args, kwargs, st) => {
      const escaped = name === "join" ? [iterateForJoin(args[0])] : args.map(escapeArg);
      return markResult(method(self, escaped, kwargs === null ? null : (escapeArg(kwargs) as Kwargs), st));
    };
  }
  if (MARKUP_SPLITTING_METHODS.has(name))
    return (self, args, kwargs, st) => markResult(method(self, args, kwargs, st));
  return method;
}

function iterateForJoin(items: unknown): unknown[] {
  if (!Array.isArray(items)) return [items];
  return items.map((item) => (typeof item === "string" ? new Markup(escapeHtml(item)) : item));
}

/** `obj.name`: Python attribute first, then item (jinja2's Environment.getattr). */
export function getAttr(obj: unknown, name: string): unknown {
  if (isMapping(obj)) {
    const method = DICT_METHODS[name];
    if (method !== undefined) return bound(obj, name, method);
    if (Object.hasOwn(obj, name)) return obj[name];
    return unsafeOrMissing(obj, name);
  }
  if (isUndefined(obj)) failIfUndefined(obj);
  if (obj instanceof LoopContext) return obj.attr(name);
  if (obj instanceof Namespace)
    return Object.hasOwn(obj.attrs, name) ? obj.attrs[name] : missingAttr(obj, name);
  if (obj instanceof PyCallable && obj.attrs !== null && Object.hasOwn(obj.attrs, name))
    return obj.attrs[name];
  const range = rangeBounds(obj);
  if (range !== undefined) {
    const at = RANGE_ATTRIBUTES.indexOf(name);
    if (at >= 0) return range[at];
  }
  const method = findMethod(obj, name);
  if (method !== null) return bound(obj, name, method);
  // groupby's namedtuple fields (defined by the groupby filter itself, never taken from input data).
  if (isTuple(obj) && (name === "grouper" || name === "list") && Object.hasOwn(obj, name)) {
    return (obj as unknown as Record<string, unknown>)[name];
  }
  return unsafeOrMissing(obj, name);
}

/** Python's getattr() alone, without the item fallback (the `attr` filter). */
export function getPythonAttr(obj: unknown, name: string): unknown {
  if (isMapping(obj)) {
    const method = DICT_METHODS[name];
    return method !== undefined ? bound(obj, name, method) : unsafeOrMissing(obj, name);
  }
  return getAttr(obj, name);
}

function unsafeOrMissing(obj: unknown, name: string): Undefined {
  if ((Array.isArray(obj) || isMapping(obj)) && UNSAFE_METHODS.has(name)) {
    return new Undefined(`access to attribute '${name}' of '${typeName(obj)}' object is unsafe.`, true);
  }
  return missingAttr(obj, name);
}

function indexOf(key: unknown): number | null {
  if (typeof key === "number" && Number.isInteger(key)) return key;
  if (typeof key === "boolean") return key ? 1 : 0;
  return null;
}

/** `obj[key]`: item first, then attribute (jinja2's Environment.getitem). */
export function getItem(obj: unknown, key: unknown): unknown {
  if (isMapping(obj)) {
    if (typeof key === "string") {
      if (key.charCodeAt(0) !== 0 && Object.hasOwn(obj, key)) return obj[key];
      const stored = storageKey(key)!;
      if (Object.hasOwn(obj, stored)) return obj[stored];
      return getAttr(obj, key);
    }
    // Jinja2's getitem turns the TypeError of an unhashable key into undefined.
    const stored = storageKey(key);
    if (stored !== null && Object.hasOwn(obj, stored)) return obj[stored];
    return new Undefined(`${objectLabel(obj)} has no element ${pyRepr(key)}`);
  }
  if (obj instanceof PyBytes) {
    const index = indexOf(key);
    if (index === null)
      return typeof key === "string"
        ? getAttr(obj, key)
        : new Undefined(`${objectLabel(obj)} has no element`);
    const i = index < 0 ? index + obj.bytes.length : index;
    return i >= 0 && i < obj.bytes.length
      ? obj.bytes[i]
      : new Undefined(`${objectLabel(obj)} has no element ${index}`);
  }
  if (Array.isArray(obj) || typeof obj === "string" || obj instanceof Markup) {
    if (Array.isArray(obj) && viewName(obj) !== undefined)
      return new Undefined(`'${viewName(obj)}' object has no element`);
    const index = indexOf(key);
    if (index !== null) {
      const seq = Array.isArray(obj) ? obj : codePoints(typeof obj === "string" ? obj : obj.text);
      const i = index < 0 ? index + seq.length : index;
      if (i >= 0 && i < seq.length) return obj instanceof Markup ? new Markup(seq[i] as string) : seq[i];
      return new Undefined(`${objectLabel(obj)} has no element ${index}`);
    }
    if (typeof key === "string") return getAttr(obj, key);
    return new Undefined(`${objectLabel(obj)} has no element`);
  }
  if (isUndefined(obj)) failIfUndefined(obj);
  if (typeof key === "string") return getAttr(obj, key);
  return new Undefined(`${objectLabel(obj)} has no element`);
}

function sliceIndex(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const i = indexOf(v);
  if (i === null) throw typeError("slice indices must be integers or None or have an __index__ method");
  return i;
}

const RANGE_ATTRIBUTES = ["start", "stop", "step"];

/** Python's `seq[start:stop:step]` (a range sliced is a range). */
export function getSlice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  failIfUndefined(obj);
  const text = typeof obj === "string" ? obj : obj instanceof Markup ? obj.text : null;
  const seq: ArrayLike<unknown> | null =
    text !== null ? codePoints(text) : Array.isArray(obj) ? obj : obj instanceof PyBytes ? obj.bytes : null;
  if (seq === null || (Array.isArray(obj) && viewName(obj) !== undefined)) {
    if (Array.isArray(obj)) throw typeError(`'${viewName(obj)}' object is not subscriptable`);
    throw typeError(
      isMapping(obj) ? "unhashable type: 'slice'" : `'${typeName(obj)}' object is not subscriptable`,
    );
  }
  const len = seq.length;
  const st = sliceIndex(step) ?? 1;
  if (st === 0) throw new TemplateRuntimeError("slice step cannot be zero", "ValueError");
  const clamp = (v: number | null, dflt: number, lower: number, upper: number) =>
    v === null ? dflt : v < 0 ? Math.max(v + len, lower) : Math.min(v, upper);
  let from: number;
  let to: number;
  if (st > 0) {
    from = clamp(sliceIndex(start), 0, 0, len);
    to = clamp(sliceIndex(stop), len, 0, len);
  } else {
    from = clamp(sliceIndex(start), len - 1, -1, len - 1);
    to = clamp(sliceIndex(stop), -1, -1, len - 1);
  }
  const out: unknown[] = [];
  if (st > 0) for (let i = from; i < to; i += st) out.push(seq[i]);
  else for (let i = from; i > to; i += st) out.push(seq[i]);
  if (text !== null) return obj instanceof Markup ? new Markup(out.join("")) : out.join("");
  if (obj instanceof PyBytes) return new PyBytes(Uint8Array.from(out as number[]));
  const range = rangeBounds(obj);
  if (range !== undefined) {
    if (typeof range[0] === "bigint") {
      const [first, , by] = range as readonly [bigint, bigint, bigint];
      const bound = (i: number) => first + BigInt(i) * by;
      return makeRange(out as bigint[], bound(from), bound(to), by * BigInt(st));
    }
    const [first, , by] = range as readonly [number, number, number];
    return makeRange(out as number[], first + from * by, first + to * by, by * st);
  }
  return isTuple(obj) ? makeTuple(out) : out;
}

/** Calls a template-visible callable. Raw JS functions are refused. */
export function callValue(fn: unknown, args: unknown[], kwargs: Kwargs | null, st: RenderState): unknown {
  if (fn instanceof PyCallable) return fn.call(args, kwargs, st);
  if (fn instanceof LoopContext && fn.recurse !== null) {
    if (args.length !== 1) throw typeError("loop() takes exactly one argument");
    return fn.recurse(args[0]);
  }
  if (isUndefined(fn)) {
    if (fn instanceof Undefined && fn.unsafe) throw new SecurityError(fn.hint);
    failIfUndefined(fn);
  }
  if (typeof fn === "function") throw new SecurityError("calling JavaScript functions is not allowed");
  throw typeError(`'${typeName(fn)}' object is not callable`);
}
