import type { ServerResponse } from "node:http";
import type { SimContext } from "../context.js";
import { sendProviderError } from "../errors.js";
import { bodyObject, type SimRequest } from "../http.js";

/**
 * The request's JSON object body, or undefined after replying with the provider's error: the content type
 * must say JSON and the body must parse to an object, as real providers insist.
 */
export function requireJsonObject(
  request: SimRequest,
  res: ServerResponse,
  context: SimContext,
): Record<string, unknown> | undefined {
  const style = context.provider.errors;
  if (!request.isJson) {
    sendProviderError(
      res,
      style,
      style === "hf" ? 415 : 400,
      "Expected a JSON body (Content-Type: application/json).",
    );
    return undefined;
  }
  if (request.jsonError !== undefined || request.json === undefined) {
    sendProviderError(
      res,
      style,
      400,
      `We could not parse the JSON body of your request: ${request.jsonError ?? "empty body"}`,
    );
    return undefined;
  }
  if (typeof request.json !== "object" || Array.isArray(request.json) || request.json === null) {
    sendProviderError(res, style, 400, "The request body must be a JSON object.");
    return undefined;
  }
  return bodyObject(request);
}

let counter = 0;

/** A fresh id with the provider's usual prefix. */
export function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}`;
}

/** A deterministic unit-ish vector for a text, so embeddings compare stably across calls. */
export function embeddingFor(text: string, dimensions = 16): number[] {
  const vector: number[] = [];
  let seed = 2166136261;
  for (const char of text) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
  for (let index = 0; index < dimensions; index++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) >>> 0;
    vector.push(Math.round(((seed / 0xffffffff) * 2 - 1) * 1e6) / 1e6);
  }
  return vector;
}
