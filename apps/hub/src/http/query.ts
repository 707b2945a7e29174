import type { Context } from "hono";
import { InvalidInputError } from "../errors.js";

const MAX_QUERY_VALUE = 500;

/** Every value of a query parameter, accepting both `name` and `name[]`, each checked for length. */
export function queryAll(c: Context, name: string): string[] {
  const values = [...(c.req.queries(name) ?? []), ...(c.req.queries(`${name}[]`) ?? [])];
  for (const value of values) {
    if (value.length > MAX_QUERY_VALUE) {
      throw new InvalidInputError(`Query parameter "${name}" is longer than ${MAX_QUERY_VALUE} characters.`);
    }
  }
  return values;
}

/** The single value of a query parameter (the last one if repeated), or undefined when absent or empty. */
export function queryOne(c: Context, name: string): string | undefined {
  const values = queryAll(c, name);
  const value = values[values.length - 1];
  return value === undefined || value === "" ? undefined : value;
}

/** Comma-separated and repeated values, flattened: `?filter=a,b&filter=c` -> [a, b, c]. */
export function queryList(c: Context, name: string): string[] {
  return queryAll(c, name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

export function queryInteger(
  c: Context,
  name: string,
  options: { min: number; max: number },
): number | undefined {
  const raw = queryOne(c, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,9}$/.test(raw)) throw new InvalidInputError(`Query parameter "${name}" must be an integer.`);
  const value = Number(raw);
  if (value < options.min || value > options.max) {
    throw new InvalidInputError(
      `Query parameter "${name}" must be between ${options.min} and ${options.max}.`,
    );
  }
  return value;
}

export function queryNumber(
  c: Context,
  name: string,
  options: { min: number; max: number },
): number | undefined {
  const raw = queryOne(c, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+(\.\d+)?$/.test(raw) || value < options.min || value > options.max) {
    throw new InvalidInputError(
      `Query parameter "${name}" must be a number between ${options.min} and ${options.max}.`,
    );
  }
  return value;
}

/**
 * A boolean as clients write it: `true`/`false` (any case: older Python clients send `True`), or `1`/`0`.
 */
export function queryBoolean(c: Context, name: string): boolean | undefined {
  const raw = queryOne(c, name);
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase();
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new InvalidInputError(`Query parameter "${name}" must be true or false.`);
}
