import { ProviderOutputError } from "./errors.js";
import type { ChatCompletionOutput } from "./types.js";

/** Per-task output checks (spec §5): a wrong shape is a ProviderOutputError naming the expected shape. */
export function expectShape<T>(value: unknown, ok: boolean, task: string, expected: string): T {
  if (!ok) {
    throw new ProviderOutputError(
      `Invalid inference output for ${task}: expected ${expected}, got ${describe(value)}`,
    );
  }
  return value as T;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length ? `[${describe(value[0])}, ...]` : "[]";
  if (typeof value === "object") return `{${Object.keys(value as object).join(", ")}}`;
  return typeof value;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isString = (v: unknown): v is string => typeof v === "string";
export const isArrayOf = (v: unknown, item: (x: unknown) => boolean): v is unknown[] =>
  Array.isArray(v) && v.every(item);

export const isLabelScore = (x: unknown) => isObject(x) && isString(x.label) && isNumber(x.score);

/** Nested arrays of numbers, any depth up to 4 (feature extraction). */
export function isNumberTensor(v: unknown, depth = 0): boolean {
  if (!Array.isArray(v) || depth > 4) return false;
  return v.every((x) => isNumber(x) || isNumberTensor(x, depth + 1));
}

export function validateChatCompletion(value: unknown) {
  const ok =
    isObject(value) &&
    Array.isArray(value.choices) &&
    isNumber(value.created) &&
    isString(value.id) &&
    isString(value.model) &&
    (value.usage === undefined || isObject(value.usage));
  return expectShape<ChatCompletionOutput>(
    value,
    ok,
    "chat completion",
    "{choices, created, id, model, usage}",
  );
}
