import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { type HubError, UpstreamError, UpstreamTimeoutError } from "../errors.js";
import {
  DROPPED_REQUEST_HEADERS,
  DROPPED_RESPONSE_HEADERS,
  type ForwardResult,
  type ForwardTimeouts,
  MAX_ERROR_BODY_BYTES,
  upstreamUrl,
} from "./forward.js";
import { ROUTER_SECURITY_HEADERS } from "./response-headers.js";
import {
  type CompiledRewrites,
  compileRewrites,
  redact,
  rewriteBody,
  rewriteText,
} from "./stream-rewriter.js";
import { StreamedAnswer } from "./streamed-answer.js";
import { startUpstreamRequest, type UpstreamTarget } from "./upstream-http.js";
import type { Upstream } from "./upstreams.js";

export interface PipeForwardRequest {
  upstream: Upstream;
  method: string;
  /** Path after `/router/{provider}`, with its query string, still URL-encoded. */
  pathAndQuery: string;
  /** The caller's headers (credentials and hop-by-hop headers are dropped here). */
  headers: IncomingHttpHeaders;
  /** Pass the caller's `x-sim-*` headers on (tests and benchmarks against provider-sim only). */
  forwardSimHeaders: boolean;
  body: Buffer | undefined;
  requestId: string;
  timeouts: ForwardTimeouts;
  /** The caller's response: a successful answer is piped into it. */
  outgoing: ServerResponse;
  /**
   * Headers every answer carries (request id, CORS, security headers), as a flat `[name, value, ...]` list
   * of lower-case names: under the provider's own on a successful answer, over them on an error.
   */
  answerHeaders: readonly string[];
  /**
   * The hub's public URL: the provider's base URL as callers must see it is `{publicUrl}/router/{provider}`.
   * Job status and result URLs a provider answers with on its own base are moved there, so that they never
   * show the provider's (or the simulator's internal) address and the caller polls through the router with
   * its hub token.
   */
  publicUrl: string;
  /** Renders a hub error (unreachable provider, timeout) as the hub's JSON error. */
  sendError(error: HubError): void;
  /** Called exactly once, when the exchange is over (body fully sent, failed, or abandoned). */
  onDone(result: ForwardResult): void;
  /** The provider's headers arrived this long after the call left (for `:fastest`). */
  onHeaders?(ms: number): void;
  /**
   * Failover: when given, a failure that is safe to try elsewhere (the provider unreachable, or 5xx / 429
   * before the first byte of an answer) calls this instead of answering the caller, who has received nothing.
   */
  onRetrySafeFailure?(status: number): void;
}

/** Whether a provider's answer may be retried at another provider: nothing of it has reached the caller. */
export function isRetrySafeStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Per upstream and public URL: the provider's key redacted, its base URL moved onto the hub's. */
const rewritesByUpstream = new WeakMap<Upstream, Map<string, CompiledRewrites>>();

/**
 * Keyed by the public URL string the hub hands out on every call (the same string each time, whose hash V8
 * keeps), not by a base URL built per call: a fresh string is hashed on each lookup (1.4 % of the hub's CPU
 * per streamed call in a profile).
 */
function rewritesOf(upstream: Upstream, publicUrl: string): CompiledRewrites {
  let byUrl = rewritesByUpstream.get(upstream);
  if (!byUrl) {
    byUrl = new Map();
    rewritesByUpstream.set(upstream, byUrl);
  }
  let compiled = byUrl.get(publicUrl);
  if (!compiled) {
    const publicBase = `${publicUrl}/router/${upstream.provider}`;
    compiled = compileRewrites([redact(upstream.secret), { find: upstream.baseUrl, replace: publicBase }]);
    if (byUrl.size >= 16) byUrl.clear();
    byUrl.set(publicUrl, compiled);
  }
  return compiled;
}

/** Parsed once per upstream: the request options that do not change from call to call. */
const targets = new WeakMap<Upstream, UpstreamTarget>();

function targetOf(upstream: Upstream): UpstreamTarget {
  let target = targets.get(upstream);
  if (!target) {
    const base = new URL(upstream.baseUrl);
    target = {
      https: base.protocol === "https:",
      hostname: base.hostname.replace(/^\[|\]$/g, ""),
      port: base.port ? Number(base.port) : base.protocol === "https:" ? 443 : 80,
      pathPrefix: base.pathname.replace(/\/+$/, ""),
      host: base.host,
    };
    targets.set(upstream, target);
  }
  return target;
}

/**
 * The caller's headers as the provider gets them, as a flat `[name, value, ...]` list: node:http takes such
 * a list as it is (an object is copied into the request's header map, one validated `setHeader` per name).
 */
function forwardedHeaders(request: PipeForwardRequest, host: string): string[] {
  const headers: string[] = ["host", host];
  const dropSimHeaders = !request.forwardSimHeaders || request.upstream.target === "provider";
  const incoming = request.headers;
  for (const name in incoming) {
    if (DROPPED_REQUEST_HEADERS.has(name) || name.startsWith("x-forwarded-")) continue;
    if (dropSimHeaders && name.startsWith("x-sim-")) continue;
    const value = incoming[name];
    if (typeof value === "string") headers.push(name, value);
    else if (value !== undefined) for (const item of value) headers.push(name, item);
  }
  headers.push(request.upstream.authHeader.name.toLowerCase(), request.upstream.authHeader.value);
  headers.push("x-request-id", request.requestId);
  if (request.body) headers.push("content-length", String(request.body.byteLength));
  return headers;
}

/** Headers of ours that a provider's header of the same name replaces on a successful answer. */
const REPLACEABLE = new Set<string>([
  "x-content-type-options",
  "cross-origin-resource-policy",
  "referrer-policy",
]);

/** What of a provider's answer headers the caller gets, read from the raw list (no header object is built). */
interface ProviderHead {
  /** Flat `[name, value, ...]`: ours, then the provider's (dropped ones left out, scrubbed). */
  headers: string[];
  /** The provider's Content-Length, or -1 (none, or a chunked answer). */
  contentLength: number;
}

function answerHead(
  upstream: IncomingMessage,
  base: readonly string[],
  rewrites: CompiledRewrites,
): ProviderHead {
  const headers = base.slice();
  let contentLength = -1;
  let chunked = false;
  const raw = upstream.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-")) {
      if (name === "content-length") contentLength = Number(value);
      else if (name === "transfer-encoding") chunked = true;
      else if (name === "x-request-id") headers.push("x-provider-request-id", value);
      continue;
    }
    const scrubbed = rewriteText(value, rewrites.rewrites);
    const ours = REPLACEABLE.has(name) ? headers.indexOf(name) : -1;
    if (ours !== -1 && ours % 2 === 0 && ours < base.length) headers[ours + 1] = scrubbed;
    else headers.push(name, scrubbed);
  }
  return { headers, contentLength: chunked || !Number.isSafeInteger(contentLength) ? -1 : contentLength };
}

/** An answer of known length up to this size is read whole and sent with its length (no chunk framing). */
const WHOLE_ANSWER_BYTES = 256 * 1024;

/** Sets a header in a flat list, replacing an earlier value. */
function setIn(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

/**
 * Sends one call to the provider and passes its answer on into the caller's Node response (without web
 * Request/Response objects or AbortSignals). A streamed answer (or one of unknown or large size) goes on
 * chunk by chunk as it arrives; a small one of known length, and every error answer, is read whole, scrubbed
 * and sent with its length in one write. The upstream call is destroyed when the caller disconnects, when the
 * headers take too long, or when the body stalls. Every answer is scrubbed of the hub's credential.
 */
export function pipeToProvider(request: PipeForwardRequest): void {
  const started = performance.now();
  const { outgoing, upstream: route, timeouts } = request;
  const rewrites = rewritesOf(route, request.publicUrl);
  let finished = false;
  let responseBytes = 0;

  let target = targetOf(route);
  let path = target.pathPrefix + request.pathAndQuery;
  if (route.target === "provider" && request.pathAndQuery.includes("_subdomain=")) {
    // The rare fal.ai queue call moves to a sub-host: take the general (URL-based) route for it.
    const url = upstreamUrl(route, request.pathAndQuery);
    target = { ...target, hostname: url.hostname, host: url.host };
    path = url.pathname + url.search;
  }

  let timedOut = false;
  let callerGone = false;
  let resent = false;
  let upstreamRequest: ClientRequest | undefined;
  let failedRequest: ClientRequest | undefined;
  let upstreamResponse: IncomingMessage | undefined;
  // One timer per call, checking a quarter of the shorter timeout at a time: the headers' deadline, then the
  // body's longest silence. Data only sets a flag (refreshing a timer per chunk costs a clock read each time),
  // so a stall is cut between its timeout and a quarter more.
  const tick = Math.max(1, Math.min(timeouts.headersMs, timeouts.idleMs) / 4);
  let silentMs = 0;
  let active = false;
  const timer = setTimeout(() => {
    if (active) {
      active = false;
      silentMs = 0;
    } else silentMs += tick;
    if (!upstreamResponse && silentMs >= timeouts.headersMs) {
      timedOut = true;
      upstreamRequest?.destroy(new Error("headers timeout"));
    } else if (upstreamResponse && silentMs >= timeouts.idleMs) {
      upstreamResponse.destroy(new Error("idle timeout"));
    } else timer.refresh();
  }, tick);
  const headers = forwardedHeaders(request, target.host);

  // The call's steps are methods of one object rather than `const` arrow functions: the source runs under
  // tsx (tests, the benchmark), whose esbuild `keepNames` redefines the `name` of every named arrow when it
  // is created, about 1 µs each, and this runs once per router call (method shorthand is left alone).
  const call = {
    finish(status: number): void {
      if (finished) return;
      finished = true;
      request.onDone({ status, responseBytes, durationMs: Math.round(performance.now() - started) });
    },

    onCallerClose(): void {
      if (outgoing.writableFinished) return;
      // The caller left before the whole answer was written: stop the provider's work.
      callerGone = true;
      clearTimeout(timer);
      upstreamResponse?.destroy();
      upstreamRequest?.destroy();
      call.finish(499);
    },

    /** Gives the caller's response over to the next provider: this attempt is over, nothing was written. */
    failOver(status: number, failover: (status: number) => void): void {
      outgoing.off("close", call.onCallerClose);
      call.finish(status);
      failover(status);
    },

    /** Reads a small answer whole, then answers the caller in one write. */
    answerWhole(upstream: IncomingMessage, status: number, head: ProviderHead): void {
      const isError = status >= 400 || status === 204 || status === 304;
      const limit = isError ? MAX_ERROR_BODY_BYTES : WHOLE_ANSWER_BYTES;
      const chunks: Buffer[] = [];
      let received = 0;
      let sent = false;
      const whole = {
        send(): void {
          clearTimeout(timer);
          if (sent || callerGone) return;
          sent = true;
          const bodyless = status === 204 || status === 304;
          const read = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const body = bodyless ? EMPTY : rewriteBody(read, rewrites);
          responseBytes = body.byteLength;
          const headers = head.headers;
          if (isError) {
            // As the app's middleware does for an answer it returns: its own headers over the provider's.
            for (let i = 0; i < request.answerHeaders.length; i += 2)
              setIn(headers, request.answerHeaders[i]!, request.answerHeaders[i + 1]!);
            for (const name in ROUTER_SECURITY_HEADERS) setIn(headers, name, ROUTER_SECURITY_HEADERS[name]!);
          }
          if (!bodyless) headers.push("content-length", String(body.byteLength));
          outgoing.writeHead(status, headers);
          outgoing.end(bodyless ? undefined : body);
          call.finish(status);
        },
        cut(): void {
          clearTimeout(timer);
          if (sent) return;
          sent = true;
          outgoing.destroy();
          call.finish(callerGone ? 499 : 502);
        },
      };
      upstream.on("data", (chunk: Buffer) => {
        active = true;
        received += chunk.byteLength;
        if (received <= limit) {
          chunks.push(chunk);
          // Every byte the provider announced is here: answered now rather than at "end", which comes a
          // tick later (then finds it sent). 2 µs earlier on a c1 call (median, response event to send).
          if (received === head.contentLength) whole.send();
          return;
        }
        upstream.destroy();
        // An error body is only read to be scrubbed: it is cut at the limit. A successful answer longer than
        // it said is cut off.
        if (isError) whole.send();
        else whole.cut();
      });
      // `on`, not `once`: each happens once at most (and `sent` guards), and `once` wraps its listener per call.
      upstream.on("end", whole.send);
      // A provider that fails or stalls mid-answer: an error answer goes out with what was read; a successful
      // one is cut, so that it is visibly incomplete rather than silently short.
      upstream.on("error", isError ? whole.send : whole.cut);
    },

    onUpstreamResponse(upstream: IncomingMessage): void {
      upstreamResponse = upstream;
      if (callerGone) {
        clearTimeout(timer);
        upstream.destroy();
        return;
      }
      const status = upstream.statusCode ?? 502;
      request.onHeaders?.(performance.now() - started);
      if (request.onRetrySafeFailure && isRetrySafeStatus(status)) {
        clearTimeout(timer);
        upstream.resume();
        call.failOver(status, request.onRetrySafeFailure);
        return;
      }
      // The body's silence is counted from here.
      active = true;
      const head = answerHead(upstream, request.answerHeaders, rewrites);
      const small = head.contentLength >= 0 && head.contentLength <= WHOLE_ANSWER_BYTES;
      if (small || status >= 400 || status === 204 || status === 304) {
        call.answerWhole(upstream, status, head);
        return;
      }

      // Passed on read by read (streamed-answer.ts); the provider is paused while the caller is slower
      // (back-pressure, as pipe() does).
      outgoing.writeHead(status, head.headers);
      const stream = new StreamedAnswer(outgoing, rewrites, upstream);
      upstream.on("data", (received: Buffer) => {
        responseBytes += received.byteLength;
        active = true;
        stream.add(received);
      });
      // `on`, not `once`: a stream ends or fails once at most, and `once` wraps its listener per call.
      upstream.on("end", () => {
        clearTimeout(timer);
        stream.end();
        call.finish(status);
      });
      upstream.on("error", () => {
        // A provider that fails or stalls mid-answer: cut the caller's connection (after what was read) so
        // the answer is visibly incomplete rather than silently short.
        clearTimeout(timer);
        stream.cut();
        outgoing.destroy();
        call.finish(callerGone ? 499 : 502);
      });
    },

    send(): void {
      const sent = startUpstreamRequest(
        target,
        { method: request.method, path, headers },
        call.onUpstreamResponse,
      );
      upstreamRequest = sent;
      // Kept for the request's life (`once` wraps its listener per call); onUpstreamError takes the first.
      sent.on("error", (error: NodeJS.ErrnoException) => call.onUpstreamError(sent, error));
      sent.end(request.body && request.body.byteLength > 0 ? request.body : undefined);
    },

    onUpstreamError(sent: ClientRequest, error: NodeJS.ErrnoException): void {
      // Only the request in flight, and its first error, count.
      if (callerGone || upstreamResponse || sent !== upstreamRequest || failedRequest === sent) return;
      failedRequest = sent;
      // A pooled keep-alive connection the provider closed while it sat idle fails as soon as it is reused,
      // before the provider saw the request: send it once more on a new connection (as Node's docs advise),
      // unless another provider can take the call (failover treats a reset as unreachable, below).
      const canFailOver = request.onRetrySafeFailure !== undefined;
      if (sent.reusedSocket && error.code === "ECONNRESET" && !resent && !timedOut && !canFailOver) {
        resent = true;
        call.send();
        return;
      }
      clearTimeout(timer);
      // Unreachable (refused, reset before an answer): safe to try the next provider. A timeout is not: the
      // provider may be doing the work.
      if (request.onRetrySafeFailure && !timedOut) {
        call.failOver(502, request.onRetrySafeFailure);
        return;
      }
      const failure = timedOut
        ? new UpstreamTimeoutError(timeouts.headersMs)
        : new UpstreamError(`Could not reach provider ${route.provider}.`);
      request.sendError(failure);
      call.finish(failure.status);
    },
  };
  outgoing.on("close", call.onCallerClose);
  call.send();
}

const EMPTY = Buffer.alloc(0);
