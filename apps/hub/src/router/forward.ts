import type { Upstream } from "./upstreams.js";

export interface ForwardTimeouts {
  /** Until the provider's response headers arrive. */
  headersMs: number;
  /** Longest silence between two chunks of a response body (a stream that stalls is cut). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: ForwardTimeouts = { headersMs: 120_000, idleMs: 120_000 };

/** Largest provider error body passed back (it is read whole to scrub credentials from it). */
export const MAX_ERROR_BODY_BYTES = 256 * 1024;

/** Provider headers never passed back: cookies, hop-by-hop, encodings undone by fetch, CORS (the hub's own). */
export const DROPPED_RESPONSE_HEADERS = new Set([
  "set-cookie",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
  "strict-transport-security",
  "x-request-id",
  "date",
  "server",
]);

export interface ForwardResult {
  /** Status the caller got; 499 when the caller went away first. */
  status: number;
  responseBytes: number;
  durationMs: number;
}

export function upstreamUrl(upstream: Upstream, pathAndQuery: string): URL {
  const url = new URL(upstream.baseUrl + pathAndQuery);
  // On a shared host the client selects a provider sub-host (fal.ai's queue) with `_subdomain`; the real
  // provider wants the host itself. The simulator understands the parameter and keeps it.
  const subdomain = url.searchParams.get("_subdomain");
  if (upstream.target === "provider" && subdomain && /^[a-z0-9-]{1,30}$/.test(subdomain)) {
    url.searchParams.delete("_subdomain");
    url.hostname = `${subdomain}.${url.hostname}`;
  }
  return url;
}
