import type { IncomingMessage, ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { UpstreamError, UpstreamTimeoutError } from "../errors.js";
import { redactSecrets } from "../logger.js";
import { readUpstreamBody, sendUpstream } from "./upstream-http.js";
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

/** Caller headers never forwarded: credentials, hop-by-hop headers, and what the hub sets itself. */
export const DROPPED_REQUEST_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-key",
  "x-api-key",
  "api-key",
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "origin",
  "referer",
  "forwarded",
  "x-request-id",
  "accept-encoding",
]);

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

export interface ForwardRequest {
  upstream: Upstream;
  method: string;
  /** Path after `/router/{provider}`, with its query string, still URL-encoded. */
  pathAndQuery: string;
  headers: Headers;
  body: Uint8Array | undefined;
  /** Aborted when the caller disconnects. */
  callerSignal: AbortSignal;
  requestId: string;
  timeouts: ForwardTimeouts;
  /** Called exactly once, when the exchange is over (body fully sent, failed, or abandoned). */
  onDone(result: ForwardResult): void;
  /** The caller's Node response, which a successful answer is piped into. */
  outgoing: ServerResponse;
  /** Headers the hub's middleware has set so far (request id, CORS), for the piped answer. */
  responseHeaders: Headers;
}

/**
 * Tells @hono/node-server that the response was written directly to the socket. A fresh instance per call:
 * the app's middleware adds headers to whatever response it is given.
 */
const alreadySent = () => new Response(null, { headers: RESPONSE_ALREADY_SENT.headers });

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

function forwardedRequestHeaders(request: ForwardRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (DROPPED_REQUEST_HEADERS.has(name) || name.startsWith("x-forwarded-")) return;
    if (name.startsWith("x-sim-") && request.upstream.target === "provider") return;
    headers[name] = value;
  });
  headers[request.upstream.authHeader.name.toLowerCase()] = request.upstream.authHeader.value;
  headers["x-request-id"] = request.requestId;
  return headers;
}

function responseHeaders(upstream: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-"))
      continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const providerRequestId = upstream.headers["x-request-id"];
  if (typeof providerRequestId === "string") headers.set("x-provider-request-id", providerRequestId);
  return headers;
}

/**
 * Sends one call to the provider and passes the provider's answer on as it arrives (no buffering, so SSE
 * events reach the caller at once). The upstream call is aborted when the caller disconnects, when the
 * headers take too long, or when the body stalls. Error answers (4xx/5xx) are read whole, scrubbed of the
 * hub's credential and returned as a Response; successful ones are piped to the caller's socket.
 */
export async function forwardToProvider(request: ForwardRequest): Promise<Response> {
  const started = performance.now();
  const abort = new AbortController();
  const onCallerGone = () => abort.abort(new Error("caller disconnected"));
  request.callerSignal.addEventListener("abort", onCallerGone, { once: true });
  let finished = false;
  let responseBytes = 0;
  const finish = (status: number) => {
    if (finished) return;
    finished = true;
    request.callerSignal.removeEventListener("abort", onCallerGone);
    request.onDone({ status, responseBytes, durationMs: Math.round(performance.now() - started) });
  };

  let timedOut = false;
  const headersTimer = setTimeout(() => {
    timedOut = true;
    abort.abort(new Error("headers timeout"));
  }, request.timeouts.headersMs);

  let upstream: IncomingMessage;
  try {
    upstream = await sendUpstream({
      url: upstreamUrl(request.upstream, request.pathAndQuery),
      method: request.method,
      headers: forwardedRequestHeaders(request),
      body: request.body,
      signal: abort.signal,
    });
  } catch {
    clearTimeout(headersTimer);
    if (request.callerSignal.aborted) {
      finish(499);
      return new Response(null, { status: 499 });
    }
    const error = timedOut
      ? new UpstreamTimeoutError(request.timeouts.headersMs)
      : new UpstreamError(`Could not reach provider ${request.upstream.provider}.`);
    finish(error.status);
    throw error;
  }
  clearTimeout(headersTimer);
  const status = upstream.statusCode ?? 502;
  const headers = responseHeaders(upstream);

  if (status >= 400 || status === 204 || status === 304) {
    // Error bodies are small: read them whole and scrub any credential a provider might echo back.
    const text = await readUpstreamBody(upstream, MAX_ERROR_BODY_BYTES).catch(() => "");
    const scrubbed = redactSecrets(text, [request.upstream.secret]);
    responseBytes = Buffer.byteLength(scrubbed);
    finish(status);
    return new Response(status === 204 || status === 304 ? null : scrubbed, { status, headers });
  }

  // The answer is piped straight into the caller's socket: each chunk is written as soon as it is read (SSE
  // events pass through one by one), and Node's pipe pauses the provider while the caller is slower.
  const outgoing = request.outgoing;
  request.responseHeaders.forEach((value, name) => {
    if (!headers.has(name)) headers.set(name, value);
  });
  outgoing.writeHead(status, Object.fromEntries(headers));
  outgoing.flushHeaders();

  // One timer, refreshed per chunk (cheaper than clearing and setting one each time).
  const idleTimer = setTimeout(() => upstream.destroy(new Error("idle timeout")), request.timeouts.idleMs);
  const armIdle = () => idleTimer.refresh();
  upstream.on("data", (chunk: Buffer) => {
    responseBytes += chunk.byteLength;
    armIdle();
  });
  upstream.once("end", () => {
    clearTimeout(idleTimer);
    finish(status);
  });
  upstream.once("error", () => {
    // A provider that fails or stalls mid-answer: cut the caller's connection so the answer is visibly
    // incomplete rather than silently short.
    clearTimeout(idleTimer);
    outgoing.destroy();
    finish(request.callerSignal.aborted ? 499 : 502);
  });
  outgoing.once("close", () => {
    clearTimeout(idleTimer);
    if (!upstream.complete) {
      abort.abort(new Error("caller disconnected"));
      upstream.destroy();
      finish(499);
    }
  });
  upstream.pipe(outgoing);
  return alreadySent();
}
