import { UpstreamError, UpstreamTimeoutError } from "../errors.js";
import { redactSecrets } from "../logger.js";
import type { Upstream } from "./upstreams.js";

export interface ForwardTimeouts {
  /** Until the provider's response headers arrive. */
  headersMs: number;
  /** Longest silence between two chunks of a response body (a stream that stalls is cut). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: ForwardTimeouts = { headersMs: 120_000, idleMs: 120_000 };

/** Largest provider error body passed back (it is read whole to scrub credentials from it). */
const MAX_ERROR_BODY_BYTES = 256 * 1024;

/** Caller headers never forwarded: credentials, hop-by-hop headers, and what the hub sets itself. */
const DROPPED_REQUEST_HEADERS = new Set([
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
const DROPPED_RESPONSE_HEADERS = new Set([
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
}

function upstreamUrl(upstream: Upstream, pathAndQuery: string): string {
  const url = new URL(upstream.baseUrl + pathAndQuery);
  // On a shared host the client selects a provider sub-host (fal.ai's queue) with `_subdomain`; the real
  // provider wants the host itself. The simulator understands the parameter and keeps it.
  const subdomain = url.searchParams.get("_subdomain");
  if (upstream.target === "provider" && subdomain && /^[a-z0-9-]{1,30}$/.test(subdomain)) {
    url.searchParams.delete("_subdomain");
    url.hostname = `${subdomain}.${url.hostname}`;
  }
  return url.toString();
}

function forwardedRequestHeaders(request: ForwardRequest): Headers {
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (DROPPED_REQUEST_HEADERS.has(name) || name.startsWith("x-forwarded-")) return;
    if (name.startsWith("x-sim-") && request.upstream.target === "provider") return;
    headers.set(name, value);
  });
  headers.set(request.upstream.authHeader.name, request.upstream.authHeader.value);
  headers.set("x-request-id", request.requestId);
  return headers;
}

function responseHeaders(upstream: Response): Headers {
  const headers = new Headers();
  upstream.headers.forEach((value, name) => {
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-")) return;
    headers.set(name, value);
  });
  const providerRequestId = upstream.headers.get("x-request-id");
  if (providerRequestId) headers.set("x-provider-request-id", providerRequestId);
  return headers;
}

/**
 * Sends one call to the provider and returns the provider's answer as it arrives: the body is a stream pulled
 * chunk by chunk as the caller reads (no buffering, so SSE events pass through at once). The upstream call is
 * aborted when the caller disconnects, when the headers take too long, or when the body stalls.
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

  let upstream: Response;
  try {
    upstream = await fetch(upstreamUrl(request.upstream, request.pathAndQuery), {
      method: request.method,
      headers: forwardedRequestHeaders(request),
      body:
        request.body && request.body.byteLength > 0 ? (request.body as Uint8Array<ArrayBuffer>) : undefined,
      signal: abort.signal,
      redirect: "manual",
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
  const headers = responseHeaders(upstream);

  if (upstream.status >= 400 || !upstream.body) {
    // Error bodies are small: read them whole and scrub any credential a provider might echo back.
    const text = await readLimited(upstream, MAX_ERROR_BODY_BYTES).catch(() => "");
    const scrubbed = redactSecrets(text, [request.upstream.secret]);
    responseBytes = Buffer.byteLength(scrubbed);
    finish(upstream.status);
    return new Response(upstream.status === 204 || upstream.status === 304 ? null : scrubbed, {
      status: upstream.status,
      headers,
    });
  }

  const reader = upstream.body.getReader();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const stopIdle = () => clearTimeout(idleTimer);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        idleTimer = setTimeout(() => abort.abort(new Error("idle timeout")), request.timeouts.idleMs);
        try {
          const { done, value } = await reader.read();
          stopIdle();
          if (done) {
            controller.close();
            finish(upstream.status);
            return;
          }
          responseBytes += value.byteLength;
          controller.enqueue(value);
        } catch (error) {
          stopIdle();
          controller.error(error);
          finish(request.callerSignal.aborted ? 499 : 502);
        }
      },
      cancel() {
        stopIdle();
        abort.abort(new Error("caller disconnected"));
        reader.cancel().catch(() => {});
        finish(499);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: upstream.status, headers });
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
