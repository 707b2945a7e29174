import type { Context, MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { readJsonBody } from "./body.js";
import type { HubEnv } from "./hub-env.js";

/**
 * Input checked by schemas (zod; docs/decisions/validation-library.md): a route declares what it takes,
 * `validate("json", schema)` (or "query", "param") checks it before the handler runs, and the handler reads
 * the typed value with `c.req.valid("json")`. A failure is the hub's InvalidInputError (400, the public hub's
 * `{"error": ...}` body with X-Error-Code/X-Error-Message) naming the field and what was expected, e.g.
 * `"expiresInDays" must be a number (got string).` or `Query parameter "by" must be one of: user, org.`
 */

/** What a request part a route can check. */
export type InputTarget = "json" | "query" | "param";

/** Largest JSON body read when a route names no limit (the hub's default API body limit). */
export const DEFAULT_JSON_BODY_BYTES = 1024 * 1024;

export interface ValidateOptions {
  /** Largest JSON body accepted (413 beyond it); only for "json". */
  maxBytes?: number;
}

/** The typed input a validated route adds: `c.req.valid(target)` is the schema's output. */
type ValidatedInput<T extends InputTarget, S extends z.ZodType> = {
  in: { [K in T]: z.input<S> };
  out: { [K in T]: z.output<S> };
};

/**
 * A middleware checking one part of the request against `schema`. JSON bodies are read with the hub's
 * limits (JSON content type or 415, size or 413, nesting depth, UTF-8), which Hono's own JSON validator does
 * not enforce; query and path parameters go through Hono's validator.
 */
export function validate<T extends InputTarget, S extends z.ZodType>(
  target: T,
  schema: S,
  options: ValidateOptions = {},
): MiddlewareHandler<HubEnv, string, ValidatedInput<T, S>> {
  if (target === "json") {
    const maxBytes = options.maxBytes ?? DEFAULT_JSON_BODY_BYTES;
    return async (c, next) => {
      const body = await readJsonBody(c as Context, maxBytes);
      c.req.addValidatedData("json", parseInput(schema, body, "json") as object);
      await next();
    };
  }
  return validator(target, (value) => parseInput(schema, value, target)) as MiddlewareHandler<
    HubEnv,
    string,
    ValidatedInput<T, S>
  >;
}

/**
 * `value` checked against `schema`, or InvalidInputError describing the first problem. Also for services
 * that check what a route passed through untouched (an admin's model record, a setting).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  source: InputTarget | { what: string } = "json",
): z.output<S> {
  const result = schema.safeParse(value, { error: expectation });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (typeof source === "string") throw new InvalidInputError(describeIssue(issue, source));
  // A value that is not a request part (a provider mapping in an admin's body or an import file).
  const sentence = describeIssue(issue, "json");
  throw new InvalidInputError(
    issue.path.length === 0 && issue.code !== "unrecognized_keys"
      ? `The ${source.what} ${issue.message}`
      : `Invalid ${source.what}: ${sentence}`,
  );
}

/** `"field" must be ...`: the field as the caller wrote it, then what it must be. */
export function describeIssue(issue: z.core.$ZodIssue, target: InputTarget): string {
  const field = issue.path.map(String);
  // An unknown key of a strict object is reported on the object: name the key itself.
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "";
    return `${label([...field, key], target)} is not a known field.`;
  }
  if (field.length === 0) {
    return target === "json" ? `The request body ${issue.message}` : `The ${target} ${issue.message}`;
  }
  return `${label(field, target)} ${issue.message}`;
}

function label(path: string[], target: InputTarget): string {
  const name = JSON.stringify(path.join(".").slice(0, 100));
  if (target === "query") return `Query parameter ${name}`;
  if (target === "param") return `Path parameter ${name}`;
  return name;
}

/**
 * The default messages, each the end of a sentence starting with the field: "must be a string (got
 * number).". A schema's own message (`z.string({ error: "..." })`) wins over these; write it the same way.
 */
function expectation(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `is required (${article(issue.expected)}).`
        : `must be ${article(issue.expected)} (got ${typeOf(issue.input)}).`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}.`
        : `must be one of: ${issue.values.map((value) => String(value)).join(", ")}.`;
    case "too_small":
      return issue.origin === "string" || issue.origin === "array"
        ? `must have at least ${issue.minimum} ${issue.origin === "string" ? "characters" : "items"}.`
        : `must be at least ${issue.minimum}.`;
    case "too_big":
      return issue.origin === "string" || issue.origin === "array"
        ? `must have at most ${issue.maximum} ${issue.origin === "string" ? "characters" : "items"}.`
        : `must be at most ${issue.maximum}.`;
    case "invalid_format":
      return `must be ${issue.format === "regex" ? "in the expected format" : `a valid ${issue.format}`}.`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}.`;
    default:
      return undefined;
  }
}

function article(expected: string): string {
  if (expected === "int") return "an integer";
  if (expected === "object" || expected === "array") return `a JSON ${expected}`;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A query parameter read as `queryOne` (http/query.ts) reads it: the last value when repeated, absent when
 * empty; then checked by `schema`. `z.object({ by: queryParam(z.enum(["user", "org"]).optional()) })`.
 */
export function queryParam<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    return last === "" ? undefined : last;
  }, schema);
}

/**
 * A boolean as clients write it in a query: `true`/`false` in any case (older Python clients send `True`),
 * or `1`/`0`. Wrap it in `queryParam`.
 */
export const booleanParam = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(z.enum(["true", "false", "1", "0"], { error: "must be true or false." }))
  .transform((value) => value === "true" || value === "1");

/** A number written plainly (`12`, `-0.5`; no exponent, no spaces) in [min, max]. Wrap it in `queryParam`. */
export function numberParam({ min, max, integer = false }: { min: number; max: number; integer?: boolean }) {
  const what = integer ? "an integer" : "a number";
  return z
    .string()
    .regex(integer ? /^-?\d{1,9}$/ : /^-?\d{1,15}(\.\d{1,15})?$/, { error: `must be ${what}.` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be ${what} from ${min} to ${max}.` })
        .max(max, {
          error: `must be ${what} from ${min} to ${max}.`,
        }),
    );
}
