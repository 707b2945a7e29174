/**
 * The Python value model on top of JS values:
 * - str -> string, None -> null, bool -> boolean, list -> Array, dict -> plain object (own keys only);
 * - int -> integral number while it is safe (|n| < 2**53), bigint beyond (Python ints are exact); float ->
 *   non-integral number, or PyFloat when the float is integral (1.0);
 * - tuple -> Array tagged with TUPLE; jinja2's Undefined -> JS undefined or an Undefined (with a hint).
 */

import { TemplateRuntimeError } from "../errors.js";
import type { RenderState } from "./state.js";

/** Base of the runtime's own value classes, so that they are never mistaken for user dicts. */
export class RuntimeObject {}

export class PyFloat extends RuntimeObject {
  constructor(readonly value: number) {
    super();
  }
}

/** A float result: integral values are boxed so that they print as `2.0`, not `2`. */
export function pyFloat(n: number): number | PyFloat {
  return Number.isInteger(n) || Object.is(n, -0) ? new PyFloat(n) : n;
}

export class Undefined extends RuntimeObject {
  constructor(
    /** Jinja2's message for when the value is used: "'x' is undefined", "'dict object' has no attribute 'y'". */
    readonly hint: string,
    /** Accessing it raises SecurityError instead of UndefinedError. */
    readonly unsafe = false,
  ) {
    super();
  }
}

export function isUndefined(v: unknown): v is Undefined | undefined {
  return v === undefined || v instanceof Undefined;
}

const TUPLE = Symbol("tuple");

export function makeTuple<T>(items: T[]): T[] {
  (items as unknown as Record<symbol, unknown>)[TUPLE] = true;
  return items;
}

export function isTuple(v: unknown): v is unknown[] {
  return Array.isArray(v) && (v as unknown as Record<symbol, unknown>)[TUPLE] === true;
}

const VIEW = Symbol("view");

/** dict.items()/keys()/values(): a list that prints as `dict_items([...])`. */
export function makeView<T>(items: T[], name: "dict_items" | "dict_keys" | "dict_values"): T[] {
  (items as unknown as Record<symbol, unknown>)[VIEW] = name;
  return items;
}

export function viewName(v: unknown[]): string | undefined {
  return (v as unknown as Record<symbol, string | undefined>)[VIEW];
}

const RANGE = Symbol("range");

/** start, stop, step: numbers, or bigints when one passes 2**53. */
export type RangeBounds = readonly [number, number, number] | readonly [bigint, bigint, bigint];

/** Python's range(start, stop, step): its items, tagged with the bounds it prints as (`range(0, 3)`). */
export function makeRange<T extends number | bigint>(items: T[], start: T, stop: T, step: T): T[] {
  (items as unknown as Record<symbol, unknown>)[RANGE] = [start, stop, step];
  return items;
}

/** The bounds of a range, or undefined for any other value. */
export function rangeBounds(v: unknown): RangeBounds | undefined {
  return Array.isArray(v) ? (v as unknown as Record<symbol, RangeBounds | undefined>)[RANGE] : undefined;
}

/** Python's type of an array: a list, a tuple or a range (lists and tuples never mix, ranges mix with nothing). */
export function sequenceType(v: unknown[]): "list" | "tuple" | "range" {
  return isTuple(v) ? "tuple" : rangeBounds(v) !== undefined ? "range" : "list";
}

/** jinja2's `namespace(...)`: the only object templates may assign attributes on. */
export class Namespace extends RuntimeObject {
  readonly attrs: Record<string, unknown> = Object.create(null);
}

export type Kwargs = Record<string, unknown>;

/** Every function a template can call (builtins, bound methods, macros, loop helpers). */
export class PyCallable extends RuntimeObject {
  constructor(
    readonly name: string,
    readonly call: (args: unknown[], kwargs: Kwargs | null, st: RenderState) => unknown,
    readonly kind: "function" | "method" | "macro" = "function",
    /** Attributes a template may read (a macro's `name`, `arguments`...; `dict.fromkeys`). */
    readonly attrs: Readonly<Record<string, unknown>> | null = null,
  ) {
    super();
  }
}

/** Python bytes (what str.encode returns). */
export class PyBytes extends RuntimeObject {
  constructor(readonly bytes: Uint8Array) {
    super();
  }
}

/**
 * A Python iterator: what Jinja2's select, reject, selectattr, rejectattr, map, items, batch, slice and
 * unique return (generators), and reverse (`list_reverseiterator`, `reversed`...). It is truthy even when
 * empty, has no len(), equals only itself, and yields its items once (a second pass sees nothing). Given
 * a function, the items are made on the first read, as a generator's body runs: its errors surface there.
 */
export class PyGenerator extends RuntimeObject {
  private position = 0;
  private items: unknown[] | (() => unknown[]);
  constructor(
    items: unknown[] | (() => unknown[]),
    /** The Python function that made it, as a generator's repr names it. */
    readonly producer: string,
    /** Its Python type: "generator", or an iterator's type such as "list_reverseiterator". */
    readonly pyType = "generator",
  ) {
    super();
    this.items = items;
  }

  private made(): unknown[] {
    if (typeof this.items === "function") this.items = this.items();
    return this.items;
  }

  /** The items not yet consumed, consuming them. */
  take(): unknown[] {
    const items = this.made();
    const rest = this.position === 0 ? items : items.slice(this.position);
    this.position = items.length;
    return rest;
  }

  /** Python's next(): the next item, or null when none is left. */
  next(): { value: unknown } | null {
    const items = this.made();
    return this.position < items.length ? { value: items[this.position++] } : null;
  }
}

/** Output of `|safe`/`|escape`: plain text that reports `is escaped` (autoescape is off). */
export class Markup extends RuntimeObject {
  constructor(readonly text: string) {
    super();
  }
  override toString(): string {
    return this.text;
  }
}

export function isNumber(v: unknown): v is number | bigint | PyFloat {
  return typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat;
}

/** int, float or bool (Python's bool is an int) as a JS number (a bigint beyond 2**1024 becomes Infinity). */
export function num(v: number | bigint | PyFloat | boolean): number {
  return typeof v === "number"
    ? v
    : typeof v === "boolean"
      ? v
        ? 1
        : 0
      : typeof v === "bigint"
        ? Number(v)
        : v.value;
}

export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v));
}

export function isInt(v: unknown): v is number | bigint {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** An int result in its canonical form: a JS number while it is safe, a bigint beyond. */
export function normInt(n: bigint): number | bigint {
  return n <= MAX_SAFE_BIG && n >= -MAX_SAFE_BIG ? Number(n) : n;
}

/** The exact value of an int (or bool) as a bigint; integral JS numbers beyond 2**53 are taken as they are. */
export function bigOf(v: number | bigint | boolean): bigint {
  return typeof v === "bigint" ? v : BigInt(typeof v === "boolean" ? (v ? 1 : 0) : v);
}

/** A mapping as Python sees it: any JS object that is not an array or one of the runtime's own values. */
export function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof RuntimeObject);
}

export function newDict(): Record<string, unknown> {
  return Object.create(null);
}

const KEY_ORDER = Symbol("key order");
type OrderedDict = Record<string, unknown> & { [KEY_ORDER]?: string[] };

/*
 * Python dicts keep insertion order; JS objects list integer-like keys ("2", "10") first, in numeric order.
 * A dict the template builds with a key starting with a digit therefore records its key order (all keys)
 * under KEY_ORDER, and everything that lists a dict's keys reads them through dictKeys. Dicts are immutable
 * in the sandbox, so only the builders (literals, dict(), fromkeys, copies, keyword arguments) write it.
 */

/** A dict's keys in Python's order. */
export function dictKeys(d: Record<string, unknown>): string[] {
  return (d as OrderedDict)[KEY_ORDER]?.slice() ?? Object.keys(d);
}

/** `d[key] = value`, keeping `key`'s insertion position. */
export function dictSet(d: Record<string, unknown>, key: string, value: unknown): void {
  const order = (d as OrderedDict)[KEY_ORDER];
  if (order !== undefined) {
    if (!Object.hasOwn(d, key)) order.push(key);
  } else {
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57 && !Object.hasOwn(d, key))
      (d as OrderedDict)[KEY_ORDER] = [...Object.keys(d), key];
  }
  d[key] = value;
}

/** `del d[key]`. */
export function dictDelete(d: Record<string, unknown>, key: string): void {
  const order = (d as OrderedDict)[KEY_ORDER];
  if (order !== undefined && Object.hasOwn(d, key)) order.splice(order.indexOf(key), 1);
  (d as KeyedDict)[PY_KEYS]?.delete(key);
  delete d[key];
}

/** `d.update(src)`: src's keys in its own order. */
export function dictUpdate(
  d: Record<string, unknown>,
  src: Record<string, unknown>,
): Record<string, unknown> {
  const keys = (src as KeyedDict)[PY_KEYS];
  for (const key of dictKeys(src)) {
    if (keys !== undefined && !Object.hasOwn(d, key)) rememberKey(d, key, keys.get(key) ?? key);
    dictSet(d, key, src[key]);
  }
  return d;
}

/*
 * Python dict keys are any hashable value; JS object keys are strings. A string key is stored as itself;
 * any other key under a canonical string that no string key can take: "\0" and a type tag ("\0i1" for
 * 1, True and 1.0, which Python also takes as one key; "\0f1.5", "\0n" for None, "\0t[...]" for tuples).
 * A string key that itself starts with "\0" is stored with one more "\0" in front. A dict that holds
 * such a key remembers, under PY_KEYS, the Python key first inserted under each stored one (Python keeps
 * the first key object: `{1: 'a', True: 'b'}` is `{1: 'b'}`). Equal keys get equal stored strings, so
 * lookups, `in` and `==` between dicts compare stored strings as before.
 */
const PY_KEYS = Symbol("python keys");
type KeyedDict = Record<string, unknown> & { [PY_KEYS]?: Map<string, unknown> };

function intKey(n: number | bigint): string {
  return `\0i${typeof n === "bigint" || Number.isSafeInteger(n) ? String(n) : BigInt(n).toString()}`;
}

/** The string a Python key is stored under; null for an unhashable key (a list, a dict). */
export function storageKey(key: unknown): string | null {
  if (typeof key === "string") return key.charCodeAt(0) === 0 ? `\0${key}` : key;
  if (typeof key === "number") return Number.isInteger(key) ? intKey(key + 0) : `\0f${key}`;
  if (typeof key === "boolean") return key ? "\0i1" : "\0i0";
  if (typeof key === "bigint") return intKey(key);
  if (key === null) return "\0n";
  if (key instanceof PyFloat) return storageKey(key.value);
  if (key instanceof Markup) return storageKey(key.text);
  if (isTuple(key)) {
    const parts: string[] = [];
    for (const item of key) {
      const part = storageKey(item);
      if (part === null) return null;
      parts.push(part);
    }
    return `\0t${JSON.stringify(parts)}`;
  }
  if (key instanceof PyBytes) return `\0b${key.bytes.join(",")}`;
  if (isUndefined(key)) return "\0u";
  return null;
}

/** The stored string of a key that must be hashable (TypeError otherwise, as Python). */
export function hashableKey(key: unknown): string {
  const stored = storageKey(key);
  if (stored === null) throw new TemplateRuntimeError(`unhashable type: '${typeName(key)}'`, "TypeError");
  return stored;
}

function rememberKey(d: Record<string, unknown>, stored: string, key: unknown): void {
  if (stored.charCodeAt(0) !== 0) return;
  (d as KeyedDict)[PY_KEYS] ??= new Map();
  (d as KeyedDict)[PY_KEYS]!.set(stored, key);
}

/** `d[key] = value` for any hashable Python key. */
export function dictSetKey(d: Record<string, unknown>, key: unknown, value: unknown): void {
  const stored = hashableKey(key);
  if (stored.charCodeAt(0) === 0 && !Object.hasOwn(d, stored)) rememberKey(d, stored, key);
  dictSet(d, stored, value);
}

/** The Python key stored under `stored` (a key of the dict). */
export function pythonKey(d: Record<string, unknown>, stored: string): unknown {
  if (stored.charCodeAt(0) !== 0) return stored;
  const keys = (d as KeyedDict)[PY_KEYS];
  // Context objects never have PY_KEYS: their keys are what they are.
  if (keys === undefined) return stored;
  return keys.has(stored) ? keys.get(stored) : stored.slice(1);
}

/** A dict's Python keys in Python's order. */
export function dictPythonKeys(d: Record<string, unknown>): unknown[] {
  const keys = dictKeys(d);
  if ((d as KeyedDict)[PY_KEYS] === undefined) return keys;
  return keys.map((k) => pythonKey(d, k));
}

/** Python's type(x).__name__, for error messages. */
export function typeName(v: unknown): string {
  if (v === null) return "NoneType";
  if (isUndefined(v)) return "Undefined";
  switch (typeof v) {
    case "string":
      return "str";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? "int" : "float";
    case "bigint":
      return "int";
    case "function":
      return "function";
  }
  if (v instanceof PyFloat) return "float";
  if (Array.isArray(v)) return sequenceType(v);
  if (v instanceof Namespace) return "Namespace";
  if (v instanceof PyGenerator) return v.pyType;
  if (v instanceof PyCallable) return v.kind === "macro" ? "Macro" : "builtin_function_or_method";
  if (v instanceof Markup) return "Markup";
  if (v instanceof PyBytes) return "bytes";
  if (isMapping(v)) return "dict";
  return "object";
}

/** Python truthiness. */
export function truthy(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (v === null || v === undefined || v instanceof Undefined) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof Markup) return v.text.length > 0;
  if (v instanceof PyBytes) return v.bytes.length > 0;
  if (isMapping(v)) {
    for (const key in v) if (Object.hasOwn(v, key)) return true;
    return false;
  }
  return true;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Python str as a sequence of code points (only split when astral characters are present). */
export function codePoints(s: string): string | string[] {
  return SURROGATE.test(s) ? Array.from(s) : s;
}
