import type { IncomingHttpHeaders } from "node:http";
import { type HubError, UpstreamError, UpstreamTimeoutError } from "../errors.js";
import type { CallerResponse } from "./caller-exchange.js";
import { answerHead, forwardedHeaders, type ProviderHead, setIn } from "./exchange-heads.js";
import { type ForwardResult, type ForwardTimeouts, MAX_ERROR_BODY_BYTES, upstreamUrl } from "./forward.js";
import { ROUTER_SECURITY_HEADERS } from "./response-headers.js";
import { ProviderProtocolError } from "./response-parser.js";
import {
  type CompiledRewrites,
  compileRewrites,
  redact,
  rewriteBody,
  rewriteCutBody,
} from "./stream-rewriter.js";
import { StreamedAnswer } from "./streamed-answer.js";
import {
  CALLER_STALLED_CODE,
  type UpstreamController as Controller,
  dispatchUpstream,
  HEADERS_TIMEOUT_CODE,
  isConnectionCut,
  type UpstreamHandler,
  type UpstreamTarget,
} from "./upstream-http.js";
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
  outgoing: CallerResponse;
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
    target = { origin: base.origin, pathPrefix: base.pathname.replace(/\/+$/, ""), host: base.host };
    targets.set(upstream, target);
  }
  return target;
}

/** An answer of known length up to this size is read whole and sent with its length (no chunk framing). */
const WHOLE_ANSWER_BYTES = 256 * 1024;

/**
 * Sends one call to the provider and passes its answer on into the caller's Node response (no web
 * Request/Response objects, streams or AbortSignals). A streamed answer (or one of unknown or large size)
 * goes on read by read as it arrives; a small one of known length, and every error answer, is read whole,
 * scrubbed and sent with its length in one write. The call is cancelled when the caller disconnects, and cut
 * (upstream-http.ts) when the provider's head takes too long or its body stalls. Every answer is scrubbed of
 * the hub's credential.
 */
export function pipeToProvider(request: PipeForwardRequest): void {
  new ProviderExchange(request).send();
}

/** The reason a call is cancelled with when its caller left (never shown to anyone). */
const CALLER_GONE = new Error("The caller went away.");
/** The reason an answer with a content coding is given up. */
const ENCODED = new Error("The provider's answer is encoded.");
/** The reason a successful answer longer than it said, or an error body past its limit, is cut. */
const TOO_LONG = new Error("The provider's answer is longer than the router reads.");

/**
 * An error answer, or one without a body (204, 304): read whole up to the error limit and sent with the hub's
 * own headers over the provider's.
 */
function isErrorStatus(status: number): boolean {
  return status >= 400 || status === 204 || status === 304;
}

/**
 * One router call's exchange with a provider, as the upstream client's handler of it: the provider's head,
 * each chunk of its body, its end or a failure arrive as method calls on this one object (one per call,
 * methods on the prototype: nothing is allocated per chunk).
 */
class ProviderExchange implements UpstreamHandler {
  private readonly started = performance.now();
  private readonly rewrites: CompiledRewrites;
  private readonly target: UpstreamTarget;
  private readonly path: string;
  private readonly headers: string[];
  private readonly onCallerClose: () => void;
  private controller: Controller | undefined;
  private finished = false;
  private callerGone = false;
  private resent = false;
  /** This attempt's provider head arrived. */
  private responded = false;
  private status = 0;
  private responseBytes = 0;
  /** What happens to the body once the head is in: read whole, passed on as it comes, or read and dropped. */
  private mode: "whole" | "streamed" | "dropped" = "dropped";
  private head: ProviderHead | undefined;
  /** Read whole: the chunks so far, how many bytes, at most how many, and whether it was answered. */
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private limit = 0;
  private sent = false;
  private stream: StreamedAnswer | undefined;

  constructor(private readonly request: PipeForwardRequest) {
    const route = request.upstream;
    this.rewrites = rewritesOf(route, request.publicUrl);
    let target = targetOf(route);
    let path = target.pathPrefix + request.pathAndQuery;
    if (route.target === "provider" && request.pathAndQuery.includes("_subdomain=")) {
      // The rare fal.ai queue call moves to a sub-host: take the general (URL-based) route for it.
      const url = upstreamUrl(route, request.pathAndQuery);
      target = { ...target, origin: url.origin, host: url.host };
      path = url.pathname + url.search;
    }
    this.target = target;
    this.path = path;
    this.headers = forwardedHeaders(request, target.host);
    this.onCallerClose = this.callerClosed.bind(this);
    request.outgoing.on("close", this.onCallerClose);
  }

  send(): void {
    const { request } = this;
    dispatchUpstream(
      this.target,
      {
        method: request.method,
        path: this.path,
        headers: this.headers,
        body: request.body,
        headersTimeoutMs: request.timeouts.headersMs,
        bodyTimeoutMs: request.timeouts.idleMs,
      },
      this,
    );
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.callerGone) controller.abort(CALLER_GONE);
  }

  onResponseStart(controller: Controller, status: number, headers: string[], bodyLength: number): void {
    const { request } = this;
    if (this.callerGone) {
      controller.abort(CALLER_GONE);
      return;
    }
    this.responded = true;
    this.status = status;
    request.onHeaders?.(performance.now() - this.started);
    if (request.onRetrySafeFailure && isRetrySafeStatus(status)) {
      // Read and dropped (its connection stays usable); the caller's response goes to the next provider.
      this.failOver(status, request.onRetrySafeFailure);
      return;
    }
    const encoding = encodingOf(headers);
    if (encoding !== undefined) {
      // Compressed bytes cannot be scrubbed of the key: refused, never passed on.
      this.mode = "dropped";
      request.sendError(
        new UpstreamError(
          `Provider ${request.upstream.provider} sent a ${encoding.slice(0, 20)}-encoded answer the router cannot check; it asks for unencoded answers.`,
        ),
      );
      this.finish(502);
      controller.abort(ENCODED);
      return;
    }
    const head = answerHead(headers, bodyLength, request.answerHeaders, this.rewrites);
    this.head = head;
    const small = head.contentLength >= 0 && head.contentLength <= WHOLE_ANSWER_BYTES;
    if (small || isErrorStatus(status)) {
      this.mode = "whole";
      this.limit = isErrorStatus(status) ? MAX_ERROR_BODY_BYTES : WHOLE_ANSWER_BYTES;
      return;
    }
    // Passed on read by read (streamed-answer.ts); the provider is paused while the caller is slower
    // (back-pressure, as pipe() does).
    this.mode = "streamed";
    request.outgoing.writeHead(status, head.headers);
    this.stream = new StreamedAnswer(request.outgoing, this.rewrites, this);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.mode === "streamed") {
      this.responseBytes += chunk.byteLength;
      this.stream!.add(chunk);
      return;
    }
    if (this.mode !== "whole") return;
    this.received += chunk.byteLength;
    if (this.received <= this.limit) {
      this.chunks.push(chunk);
      return;
    }
    // An error body is only read to be scrubbed: it is cut at the limit. A successful answer longer than it
    // said is cut off.
    if (isErrorStatus(this.status)) this.sendWhole();
    else this.cutWhole();
    controller.abort(TOO_LONG);
  }

  onResponseEnd(): void {
    if (this.mode === "whole") this.sendWhole();
    else if (this.mode === "streamed") {
      this.stream!.end();
      this.finish(this.status);
    }
  }

  onResponseError(controller: Controller, error: Error & { code?: string }): void {
    // Given up when the caller left (recorded as 499 then).
    if (this.callerGone) return;
    if (!this.responded) {
      this.failedBeforeAnswer(error, controller.reusedConnection);
      return;
    }
    // A provider that fails or stalls mid-answer: an error answer goes out with what was read; a successful
    // one is cut (after what was read, when streamed), so that it is visibly incomplete rather than short.
    if (this.mode === "whole") {
      if (isErrorStatus(this.status)) this.sendWhole();
      else this.cutWhole();
    } else if (this.mode === "streamed") {
      this.stream!.cut();
      this.request.outgoing.destroy();
      // A caller that stopped reading is the one that ended the call, as one that left.
      this.finish(error.code === CALLER_STALLED_CODE ? 499 : 502);
    }
  }

  /** Back-pressure from the caller (streamed-answer.ts): stop reading the provider, then go on. */
  pause(): void {
    this.controller?.pause();
  }

  resume(): void {
    this.controller?.resume();
  }

  private failedBeforeAnswer(error: Error & { code?: string }, reusedConnection: boolean): void {
    const { request } = this;
    // A pooled keep-alive connection the provider closed while it sat idle fails as soon as it is reused,
    // before the provider saw the call: send it once more (on a new connection: the cut one is gone), unless
    // another provider can take the call (failover treats a cut connection as unreachable, below). A new
    // connection cut before the answer is not resent: the provider had the call, and may have done its work.
    const canFailOver = request.onRetrySafeFailure !== undefined;
    if (isConnectionCut(error) && reusedConnection && !this.resent && !canFailOver) {
      this.resent = true;
      // After the upstream client is done with the failed attempt.
      queueMicrotask(this.send.bind(this));
      return;
    }
    // Unreachable (refused, cut before an answer): safe to try the next provider. A timeout is not: the
    // provider may be doing the work.
    const timedOut = error.code === HEADERS_TIMEOUT_CODE;
    if (request.onRetrySafeFailure && !timedOut) {
      this.failOver(502, request.onRetrySafeFailure);
      return;
    }
    const failure = timedOut
      ? new UpstreamTimeoutError(request.timeouts.headersMs)
      : new UpstreamError(noAnswerMessage(request.upstream.provider, error));
    request.sendError(failure);
    this.finish(failure.status);
  }

  /** Answers the caller in one write with the body read whole. */
  private sendWhole(): void {
    if (this.sent) return;
    this.sent = true;
    const { status, request, chunks } = this;
    const bodyless = status === 204 || status === 304;
    const read = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const body = bodyless
      ? EMPTY
      : this.received > this.limit
        ? rewriteCutBody(read, this.rewrites)
        : rewriteBody(read, this.rewrites);
    this.responseBytes = body.byteLength;
    const headers = this.head!.headers;
    if (isErrorStatus(status)) {
      // As the app's middleware does for an answer it returns: its own headers over the provider's.
      for (let i = 0; i < request.answerHeaders.length; i += 2)
        setIn(headers, request.answerHeaders[i]!, request.answerHeaders[i + 1]!);
      for (const name in ROUTER_SECURITY_HEADERS) setIn(headers, name, ROUTER_SECURITY_HEADERS[name]!);
    }
    if (!bodyless) headers.push("content-length", String(body.byteLength));
    request.outgoing.writeHead(status, headers);
    request.outgoing.end(bodyless ? undefined : body);
    this.finish(status);
  }

  /** A successful answer that cannot be passed on whole: the caller's connection is cut. */
  private cutWhole(): void {
    if (this.sent) return;
    this.sent = true;
    this.request.outgoing.destroy();
    this.finish(502);
  }

  /** Gives the caller's response over to the next provider: this attempt is over, nothing was written. */
  private failOver(status: number, failover: (status: number) => void): void {
    this.request.outgoing.off("close", this.onCallerClose);
    this.finish(status);
    failover(status);
  }

  private callerClosed(): void {
    if (this.request.outgoing.writableFinished) return;
    // The caller left before the whole answer was written: stop the provider's work.
    this.callerGone = true;
    this.controller?.abort(CALLER_GONE);
    this.finish(499);
  }

  private finish(status: number): void {
    if (this.finished) return;
    this.finished = true;
    this.request.onDone({
      status,
      responseBytes: this.responseBytes,
      durationMs: Math.round(performance.now() - this.started),
    });
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * The answer's content coding (gzip, br...), when it has one: the router asks for none (it sends no
 * Accept-Encoding), and cannot look for the key inside compressed bytes.
 */
function encodingOf(headers: readonly string[]): string | undefined {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] !== "content-encoding") continue;
    const value = headers[i + 1]!.trim().toLowerCase();
    if (value !== "" && value !== "identity") return value;
  }
  return undefined;
}

/** What the caller is told of a provider that gave no usable answer (a 502). */
function noAnswerMessage(provider: string, error: Error & { code?: string }): string {
  if (error instanceof ProviderProtocolError) {
    return `Provider ${provider} sent an answer that is not valid HTTP/1.1 (${error.detail}).`;
  }
  if (isConnectionCut(error)) return `Provider ${provider} closed the connection before answering.`;
  return `Could not reach provider ${provider}.`;
}
