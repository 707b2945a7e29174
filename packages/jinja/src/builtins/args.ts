import { TemplateRuntimeError } from "../errors.js";
import { typeError } from "../runtime/operators.js";
import type { RenderState } from "../runtime/state.js";
import { type Kwargs, typeName } from "../runtime/values.js";

/** How every filter and test is called: the value, then the template's arguments. */
export type FilterFn = (value: unknown, args: unknown[], kwargs: Kwargs | null, st: RenderState) => unknown;
export type TestFn = (value: unknown, args: unknown[], kwargs: Kwargs | null, st: RenderState) => boolean;
/** A Python method: `self` is the receiver (str, list, dict or bytes). */
// biome-ignore lint/suspicious/noExplicitAny: each table types its receiver (string, array, dict or bytes) itself
export type Method = (self: any, args: unknown[], kwargs: Kwargs | null, st: RenderState) => unknown;

/** Python-style argument lookup: positional index, else keyword, else default. */
export function arg(
  args: unknown[],
  kwargs: Kwargs | null,
  index: number,
  name: string,
  dflt?: unknown,
): unknown {
  if (index < args.length) return args[index];
  if (kwargs !== null && Object.hasOwn(kwargs, name)) return kwargs[name];
  return dflt;
}

export function table<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

export function valueError(message: string): TemplateRuntimeError {
  return new TemplateRuntimeError(message, "ValueError");
}

/** The shared empty argument list (callees never modify their arguments). */
export const NO_ARGS: unknown[] = [];

/** Python's operator.index(): ints and bools; anything else raises the TypeError Python raises. */
export function pyIndex(v: unknown): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  // Past 2**53 no index fits anything a template can build; Python's own limit is 2**63.
  if (typeof v === "bigint") {
    if (v >= 2n ** 63n || v < -(2n ** 63n))
      throw new TemplateRuntimeError("cannot fit 'int' into an index-sized integer", "OverflowError");
    return Number(v);
  }
  throw typeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** An int argument at full precision (a bigint past 2**53). */
export function pyInt(v: unknown): number | bigint {
  return typeof v === "bigint" ? v : pyIndex(v);
}
