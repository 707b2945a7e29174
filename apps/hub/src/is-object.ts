/**
 * A plain JSON object (not null, not an array). The one shared test, for code that walks JSON it did not
 * declare a schema for (model records, token payloads); input a route takes is checked by its schema
 * (http/validate.ts) instead.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
