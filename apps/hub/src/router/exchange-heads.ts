import type { IncomingHttpHeaders } from "node:http";
import { DROPPED_RESPONSE_HEADERS } from "./forward.js";
import { type CompiledRewrites, rewriteString } from "./stream-rewriter.js";
import type { Upstream } from "./upstreams.js";

/**
 * The heads of a router call on both sides of the hub: the caller's request headers as the provider gets them,
 * and the provider's answer headers as the caller gets them (scrubbed of the provider's key), both as flat
 * `[name, value, ...]` lists.
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
 * The caller's headers as the provider gets them, as a flat `[name, value, ...]` list: those of
 * FORWARDED_REQUEST_HEADERS (and provider-sim's `x-sim-*` when the hub is told to pass them), then the hub's
 * own (host, the provider's credential, the request id, the body's length).
 */
export function forwardedHeaders(
  call: {
    headers: IncomingHttpHeaders;
    forwardSimHeaders: boolean;
    upstream: Upstream;
    requestId: string;
    body: Buffer | undefined;
  },
  host: string,
): string[] {
  const headers: string[] = ["host", host];
  const dropSimHeaders = !call.forwardSimHeaders || call.upstream.target === "provider";
  const incoming = call.headers;
  for (const name in incoming) {
    if (!FORWARDED_REQUEST_HEADERS.has(name) && (dropSimHeaders || !name.startsWith("x-sim-"))) continue;
    const value = incoming[name];
    if (typeof value === "string") headers.push(name, value);
    else if (value !== undefined) for (const item of value) headers.push(name, item);
  }
  headers.push(call.upstream.authHeader.name.toLowerCase(), call.upstream.authHeader.value);
  headers.push("x-request-id", call.requestId);
  if (call.body) headers.push("content-length", String(call.body.byteLength));
  return headers;
}

/** Headers of ours that a provider's header of the same name replaces on a successful answer. */
const REPLACEABLE = new Set<string>([
  "x-content-type-options",
  "cross-origin-resource-policy",
  "referrer-policy",
]);

/** What of a provider's answer headers the caller gets. */
export interface ProviderHead {
  /** Flat `[name, value, ...]`: ours, then the provider's (dropped ones left out, scrubbed). */
  headers: string[];
  /** The provider's Content-Length, or -1 (none, or a chunked answer). */
  contentLength: number;
}

export function answerHead(
  provided: readonly string[],
  bodyLength: number,
  base: readonly string[],
  rewrites: CompiledRewrites,
): ProviderHead {
  const headers = base.slice();
  for (let i = 0; i < provided.length; i += 2) {
    const name = provided[i]!;
    const value = provided[i + 1]!;
    // A header whose name holds the key is dropped whole (names cannot be rewritten into a valid one).
    if (rewriteString(name, rewrites) !== name) continue;
    const scrubbed = rewriteString(value, rewrites);
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-")) {
      if (name === "x-request-id") headers.push("x-provider-request-id", scrubbed);
      continue;
    }
    const ours = REPLACEABLE.has(name) ? headers.indexOf(name) : -1;
    if (ours !== -1 && ours % 2 === 0 && ours < base.length) headers[ours + 1] = scrubbed;
    else headers.push(name, scrubbed);
  }
  return { headers, contentLength: bodyLength };
}

/** Sets a header in a flat list, replacing an earlier value. */
export function setIn(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}
