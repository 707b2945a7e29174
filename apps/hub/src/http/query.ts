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
  return queryBounded(c, name, options, /^-?\d{1,9}$/, {
    format: `Query parameter "${name}" must be an integer.`,
    range: `Query parameter "${name}" must be between ${options.min} and ${options.max}.`,
  });
}

export function queryNumber(
  c: Context,
  name: string,
  options: { min: number; max: number },
): number | undefined {
  const message = `Query parameter "${name}" must be a number between ${options.min} and ${options.max}.`;
  return queryBounded(c, name, options, /^-?\d+(\.\d+)?$/, { format: message, range: message });
}

/** The parameter as a number in [min, max] spelled as `spelling` allows, or undefined when absent. */
function queryBounded(
  c: Context,
  name: string,
  { min, max }: { min: number; max: number },
  spelling: RegExp,
  messages: { format: string; range: string },
): number | undefined {
  const raw = queryOne(c, name);
  if (raw === undefined) return undefined;
  if (!spelling.test(raw)) throw new InvalidInputError(messages.format);
  const value = Number(raw);
  if (value < min || value > max) throw new InvalidInputError(messages.range);
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
