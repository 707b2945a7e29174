import { DROPPED_RESPONSE_HEADERS } from "./forward.js";
import { type CompiledRewrites, rewriteString } from "./stream-rewriter.js";
import type { Upstream } from "./upstreams.js";

/**
 * The heads of a router call on both sides of the hub: the caller's request headers as the provider gets them,
 * and the provider's answer headers as the caller gets them (scrubbed of the provider's key).
 */

/**
 * The only caller headers a provider gets: what the hub's client sends on an inference call (the body's type,
 * what answer it accepts, Replicate's `Prefer: wait`, Z.ai's channel and language) and hf-inference's call
 * options. Everything else stays with the hub: credentials, hop-by-hop headers, method overrides
 * (`X-HTTP-Method-Override` and kin, which some APIs obey), and headers that choose the account a provider
 * bills or acts for (`OpenAI-Organization`, `OpenAI-Project`).
 */
export const FORWARDED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "accept",
  "accept-language",
  "user-agent",
  "prefer",
  "x-source-channel",
  "x-use-cache",
  "x-wait-for-model",
]);

/**
 * The caller's headers that may go on to a provider (forwardedHeaders filters them again), looked up by name:
 * Hono's `c.req.header()` record makes node-server build a full `Headers` of the request, every header
 * validated, and was ~0.8% of the hub's CPU per router call (bench:router profile 2026-11-30). All of them
 * only when provider-sim's `x-sim-*` headers are passed on (tests and the benchmark).
 */
export function forwardableCallerHeaders(
  request: { header(name: string): string | undefined; header(): Record<string, string> },
  forwardSimHeaders: boolean,
): Record<string, string> {
  if (forwardSimHeaders) return request.header();
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * The caller's headers as the provider gets them: those of FORWARDED_REQUEST_HEADERS (and provider-sim's
 * `x-sim-*` when the hub is told to pass them), then the hub's own (the provider's credential, the request
 * id). undici adds the host and the body's length.
 */
export function forwardedHeaders(call: {
  /** The caller's headers, lower-case names (Hono's `c.req.header()`). */
  headers: Readonly<Record<string, string>>;
  forwardSimHeaders: boolean;
  upstream: Upstream;
  requestId: string;
  /** The `Via` of a call to an own provider (hop-guard.ts). */
  via?: string;
}): Record<string, string> {
  const headers: Record<string, string> = {};
  const dropSimHeaders = !call.forwardSimHeaders || call.upstream.target === "provider";
  for (const [name, value] of Object.entries(call.headers)) {
    if (!FORWARDED_REQUEST_HEADERS.has(name) && (dropSimHeaders || !name.startsWith("x-sim-"))) continue;
    headers[name] = value;
  }
  // An own server without a key gets no credential header at all.
  if (call.upstream.authHeader.value !== "") {
    headers[call.upstream.authHeader.name.toLowerCase()] = call.upstream.authHeader.value;
  }
  headers["x-request-id"] = call.requestId;
  if (call.via !== undefined) headers.via = call.via;
  return headers;
}

/**
 * The provider's answer headers as the caller gets them: cookies, hop-by-hop headers, CORS and the like
 * dropped (the hub's middleware sets its own), every value scrubbed of the key, the provider's request id
 * kept as `x-provider-request-id`.
 */
export function answerHeaders(
  provided: Readonly<Record<string, string | string[] | undefined>>,
  rewrites: CompiledRewrites,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(provided)) {
    if (value === undefined) continue;
    // X-Accel-*: a provider's answer must never steer nginx in front of the hub (DOWNLOAD_OFFLOAD=x-accel would
    // otherwise let it name a stored file to send).
    const dropped =
      DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-") || name.startsWith("x-accel-");
    if (dropped && name !== "x-request-id") continue;
    // A header whose name holds the key is dropped whole (names cannot be rewritten into a valid one).
    if (rewriteString(name, rewrites) !== name) continue;
    const target = name === "x-request-id" ? "x-provider-request-id" : name;
    for (const item of Array.isArray(value) ? value : [value]) {
      headers.append(target, rewriteString(item, rewrites));
    }
  }
  return headers;
}
