import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { HubError, UpstreamError, UpstreamTimeoutError } from "../errors.js";
import type { CallerSignal } from "./caller-signal.js";
import { answerHeaders, forwardedHeaders } from "./exchange-heads.js";
import { type ForwardResult, type ForwardTimeouts, MAX_ERROR_BODY_BYTES, upstreamUrl } from "./forward.js";
import { failedOnReusedConnection, isConnectionCut } from "./provider-agent.js";
import { isRedirect, passthroughLocation } from "./provider-redirect.js";
import {
  type CompiledRewrites,
  compileRewrites,
  createStreamRewriter,
  redact,
  rewriteBody,
  rewriteCutBody,
  rewriteString,
} from "./stream-rewriter.js";
import type { Upstream } from "./upstreams.js";

/** One call to a provider, as the router's routes make it. */
export interface ProviderCall {
  /** The router's undici Agent (provider-agent.ts). */
  dispatcher: Dispatcher;
  upstream: Upstream;
  /** The provider's key and base URL as they must never reach the caller (providerRewrites). */
  rewrites: CompiledRewrites;
  method: string;
  /** Path after `/router/{provider}`, with its query string, still URL-encoded. */
  pathAndQuery: string;
  /** The caller's headers, lower-case names: only FORWARDED_REQUEST_HEADERS go on (exchange-heads.ts). */
  callerHeaders: Readonly<Record<string, string>>;
  /** Pass the caller's `x-sim-*` headers on (tests and benchmarks against provider-sim only). */
  forwardSimHeaders: boolean;
  body: Uint8Array | undefined;
  requestId: string;
  timeouts: ForwardTimeouts;
  /** Headers of the hub's own set on the answer (the OpenAI-compatible API's `x-inference-provider`). */
  extraHeaders?: Readonly<Record<string, string>>;
  /** `Via` for an own provider: the hubs the call went through, this one last (hop-guard.ts). */
  via?: string;
  /**
   * An own provider: its 401 or 403 says the hub's key for it is wrong, never the caller's. Tried elsewhere
   * when failover may (a RetrySafeFailure), else a 502 saying so: passed on, the caller's client would say
   * the caller's own token was refused.
   */
  keyRefusalIsHubs?: boolean;
  /**
   * Where a provider's redirect may lead the caller (provider-redirect.ts): by default nowhere, it is tried
   * elsewhere when failover may, else a 502 (a client would follow it into the hub with the caller's token and
   * body). The passthrough's `{publicUrl}/router/{provider}`: a redirect within the provider's base URL goes on,
   * moved onto it, any other is a 502.
   */
  redirectsOnto?: string;
  /** The caller's going away (caller-signal.ts), which cancels the provider's call. */
  signal?: CallerSignal;
  /**
   * Failover: a failure that is safe to try elsewhere (the provider unreachable, or 5xx / 429 before the
   * first byte of an answer) returns a RetrySafeFailure instead of answering the caller.
   */
  canFailOver?: boolean;
  /**
   * The caller asked for a stream (a chat body's `"stream": true`): the answer's stream is made while the
   * provider works rather than once its head is in, on the way to the caller's first event. A hint only: the
   * answer's own head decides how it is passed on, and a stream made for an answer read whole is dropped.
   */
  streamExpected?: boolean;
  /** Called exactly once, when the exchange is over (body fully sent, failed, or abandoned). */
  onDone(result: ForwardResult): void;
  /** The provider's headers arrived this long after the call left (for `:fastest`). */
  onHeaders?(ms: number): void;
}

/**
 * A provider's answer as the caller gets it: the route hands it to Hono (`c.body`), whose middleware adds the
 * hub's own headers (request id, CORS, security headers) and @hono/node-server writes it, a stream with
 * back-pressure.
 */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | Uint8Array | null;
}

/** This provider failed in a way another may be tried for: nothing was sent to the caller. */
export class RetrySafeFailure {
  constructor(readonly status: number) {}
}

/** The caller left before its answer: nobody reads this error (the call is recorded as 499). */
export class CallerGoneError extends HubError {
  constructor() {
    super(400, "client_closed", "The caller closed the connection before the answer.");
  }
}

/** Whether a provider's answer may be retried at another provider: nothing of it has reached the caller. */
export function isRetrySafeStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Per upstream: its key redacted, its base URL moved onto `{publicUrl}/router/{provider}` (job status and
 * result URLs a provider answers with on its own base, so that the caller polls through the router). Compiled
 * once per upstream of a router.
 */
export function providerRewrites(publicUrl: string): (upstream: Upstream) => CompiledRewrites {
  const compiled = new WeakMap<Upstream, CompiledRewrites>();
  return (upstream) => {
    let rewrites = compiled.get(upstream);
    if (!rewrites) {
      rewrites = compileRewrites([
        redact(upstream.secret),
        { find: upstream.baseUrl, replace: `${publicUrl}/router/${upstream.provider}` },
      ]);
      compiled.set(upstream, rewrites);
    }
    return rewrites;
  };
}

/** An answer of known length up to this size is read whole and sent with its length. */
const WHOLE_ANSWER_BYTES = 256 * 1024;

/**
 * Sends one call to the provider through undici and gives its answer for the caller (ProviderAnswer),
 * scrubbed of the provider's key and base URL: a streamed answer (or one of unknown or large size) as a
 * stream passed on read by read, with back-pressure both ways; a small one of known length, and every error
 * answer, read whole. The provider's call is cancelled when the caller goes away, and cut when its head
 * takes longer than `timeouts.headersMs` or its body stalls for `timeouts.idleMs` (undici's timeouts).
 */
export async function callProvider(call: ProviderCall): Promise<ProviderAnswer | RetrySafeFailure> {
  const exchange = new Exchange(call);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await send(call, call.streamExpected ? () => setImmediate(prepareStream, exchange) : undefined);
  } catch (error) {
    return exchange.failedBeforeAnswer(error);
  }
  call.onHeaders?.(performance.now() - exchange.started);
  const status = answer.statusCode;
  if (call.canFailOver && isRetrySafeStatus(status)) {
    // Read and dropped (its connection stays usable); the caller's answer comes from the next provider.
    answer.body.dump().catch(() => {});
    exchange.finish(status);
    return new RetrySafeFailure(status);
  }
  const location = isRedirect(status) ? redirectLocation(call, answer.headers.location) : undefined;
  if (isRedirect(status) && location === undefined) {
    answer.body.dump().catch(() => {});
    if (call.canFailOver) {
      exchange.finish(status);
      return new RetrySafeFailure(status);
    }
    exchange.finish(502);
    throw new UpstreamError(redirectRefused(call, status));
  }
  if (call.keyRefusalIsHubs && (status === 401 || status === 403)) {
    answer.body.dump().catch(() => {});
    if (call.canFailOver) {
      exchange.finish(status);
      return new RetrySafeFailure(status);
    }
    exchange.finish(502);
    throw new UpstreamError(
      `Provider ${call.upstream.provider} refused the hub's key for it (${status}): its administrator must set the key again.`,
    );
  }
  const encoding = contentCoding(answer.headers["content-encoding"]);
  if (encoding !== undefined) {
    // Compressed bytes cannot be scrubbed of the key: refused, never passed on. undici's body destroyed
    // unread emits an AbortError, which nobody else listens for (uncaught, it would end the process).
    answer.body.once("error", () => {}).destroy();
    exchange.finish(502);
    throw new UpstreamError(
      `Provider ${call.upstream.provider} sent a ${encoding.slice(0, 20)}-encoded answer the router cannot check; it asks for unencoded answers.`,
    );
  }
  const headers = answerHeaders(answer.headers, call.rewrites);
  if (location !== undefined) headers.set("location", location);
  for (const [name, value] of Object.entries(call.extraHeaders ?? {})) headers.set(name, value);
  const length = Number(answer.headers["content-length"] ?? -1);
  if (isErrorStatus(status)) return exchange.whole(answer.body, status, headers, MAX_ERROR_BODY_BYTES);
  if (length >= 0 && length <= WHOLE_ANSWER_BYTES) {
    return exchange.whole(answer.body, status, headers, WHOLE_ANSWER_BYTES);
  }
  return { status, headers, body: exchange.streamed(answer.body, status) };
}

/**
 * Runs in the check phase after the call was sent: undici writes a call on a reused keep-alive connection
 * only in the check phase (an Immediate of its own, queued first: it looks for a close the provider sent
 * meanwhile), so the answer's stream is made after the call left, not before.
 */
function prepareStream(exchange: Exchange): void {
  exchange.prepareStream();
}

/**
 * The `Location` of a provider's redirect as the caller may get it (passthroughLocation, scrubbed of the key),
 * or undefined when the redirect must not reach the caller.
 */
function redirectLocation(call: ProviderCall, location: string | string[] | undefined): string | undefined {
  if (call.redirectsOnto === undefined) return undefined;
  const target = targetOf(call.upstream, call.pathAndQuery);
  const moved = passthroughLocation(location, target.origin + target.path, call.upstream.baseUrl, "");
  return moved === undefined ? undefined : call.redirectsOnto + rewriteString(moved, call.rewrites);
}

/** What the caller is told of a redirect the router does not pass on (a 502). */
function redirectRefused(call: ProviderCall, status: number): string {
  const provider = call.upstream.provider;
  if (call.redirectsOnto !== undefined) {
    return `Provider ${provider} redirected elsewhere than its own API (${status}), which the router does not pass on.`;
  }
  // An own server's admin can fix it; a hosted provider's redirect is the operator's to look into.
  const fix = call.keyRefusalIsHubs ? ": its base URL must be the server's own" : "";
  return `Provider ${provider} answered with a redirect (${status}), which the router does not follow${fix}.`;
}

/**
 * Where a call goes (origin, and path with query), by upstream and path: the same few come again and again,
 * and a URL parsed per call showed in the hub's profile. The key is everything upstreamUrl reads.
 */
const targets = new Map<string, { origin: string; path: string }>();
const MAX_TARGETS = 4096;

function targetOf(upstream: Upstream, pathAndQuery: string): { origin: string; path: string } {
  const key = `${upstream.target}\n${upstream.baseUrl}\n${pathAndQuery}`;
  let target = targets.get(key);
  if (!target) {
    const url = upstreamUrl(upstream, pathAndQuery);
    target = { origin: url.origin, path: url.pathname + url.search };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(key, target);
  }
  return target;
}

/**
 * The call, sent once more when a reused keep-alive connection was cut before the provider saw it.
 * `whileWaiting` runs once the call is handed to undici, before the provider's answer can be read.
 */
async function send(call: ProviderCall, whileWaiting?: () => void): Promise<Dispatcher.ResponseData> {
  const target = targetOf(call.upstream, call.pathAndQuery);
  const options: Dispatcher.RequestOptions = {
    origin: target.origin,
    path: target.path,
    method: call.method as Dispatcher.HttpMethod,
    headers: forwardedHeaders({
      headers: call.callerHeaders,
      forwardSimHeaders: call.forwardSimHeaders,
      upstream: call.upstream,
      requestId: call.requestId,
      via: call.via,
    }),
    body: call.body,
    headersTimeout: call.timeouts.headersMs,
    bodyTimeout: call.timeouts.idleMs,
    signal: call.signal,
  };
  try {
    const answer = call.dispatcher.request(options);
    whileWaiting?.();
    return await answer;
  } catch (error) {
    // Not when another provider can take the call: failover treats a cut connection as unreachable.
    if (call.canFailOver || !isConnectionCut(error) || !failedOnReusedConnection(error)) throw error;
    return await call.dispatcher.request(options);
  }
}

/**
 * An error answer, or one without a body (204, 304): read whole up to the error limit and sent with the hub's
 * headers (its middleware's) over the provider's.
 */
function isErrorStatus(status: number): boolean {
  return status >= 400 || status === 204 || status === 304;
}

/** One call's bookkeeping: when it started, and its result recorded exactly once. */
class Exchange {
  readonly started = performance.now();
  private finished = false;

  constructor(private readonly call: ProviderCall) {}

  finish(status: number, responseBytes = 0): void {
    if (this.finished) return;
    this.finished = true;
    this.call.onDone({ status, responseBytes, durationMs: Math.round(performance.now() - this.started) });
  }

  failedBeforeAnswer(error: unknown): RetrySafeFailure {
    const { call } = this;
    if (call.signal?.aborted) {
      this.finish(499);
      throw new CallerGoneError();
    }
    // Unreachable (refused, cut before an answer): safe to try the next provider. A timeout is not: the
    // provider may be doing the work.
    const timedOut = (error as { code?: string }).code === "UND_ERR_HEADERS_TIMEOUT";
    if (call.canFailOver && !timedOut) {
      this.finish(502);
      return new RetrySafeFailure(502);
    }
    const failure = timedOut
      ? new UpstreamTimeoutError(call.timeouts.headersMs)
      : new UpstreamError(noAnswerMessage(call.upstream.provider, error));
    this.finish(failure.status);
    throw failure;
  }

  /** The answer read whole (up to `limit`), scrubbed, sent with its length. */
  async whole(body: Readable, status: number, headers: Headers, limit: number): Promise<ProviderAnswer> {
    const read = await readUpTo(body, limit);
    if (this.call.signal?.aborted) {
      this.finish(499);
      throw new CallerGoneError();
    }
    if (read.failed && !isErrorStatus(status)) {
      // A successful answer cut short (or longer than it said) is not passed on as if whole.
      this.finish(502);
      throw new UpstreamError(`Provider ${this.call.upstream.provider} broke off its answer.`);
    }
    if (status === 204 || status === 304) {
      this.finish(status);
      return { status, headers, body: null };
    }
    // An error body is only read to be scrubbed: it is cut at the limit, a key cut there removed with it.
    const scrubbed = read.cut
      ? rewriteCutBody(read.bytes, this.call.rewrites)
      : rewriteBody(read.bytes, this.call.rewrites);
    this.finish(status, scrubbed.byteLength);
    return { status, headers, body: scrubbed };
  }

  /**
   * The answer's stream, made before its head is in when the caller asked for a stream: in Node 20 a web
   * ReadableStream costs 40-80 µs to construct (`makeTransferable`; ~7% of the hub's CPU between a provider's
   * head and the caller's first event, bench:router chunk profile in 2026-11-30-router-stream.md), better
   * spent while the provider works.
   */
  prepareStream(): void {
    if (this.answered || this.finished) return;
    this.prepared ??= this.makeStream();
  }

  private prepared: AnswerStream | undefined;
  /** The answer's head is in: a stream made from now on would be for nothing. */
  private answered = false;

  /** The answer passed on read by read as the caller takes it (makeStream), from the provider's body. */
  streamed(body: Readable, status: number): ReadableStream<Uint8Array> {
    const answer = this.prepared ?? this.makeStream();
    this.prepared = undefined;
    this.answered = true;
    answer.attach(body, status);
    return answer.stream;
  }

  /**
   * The answer passed on read by read as the caller takes it: pulled from undici only when the caller's
   * connection can take more (back-pressure to the provider), scrubbed across reads. The caller going away
   * cancels it (and the provider's call); a provider failing or stalling mid-answer cuts the caller's
   * connection after what was read, so that the answer is visibly incomplete rather than short. A caller
   * that takes nothing for `idleMs` ends the call, as one that left: it must not hold the provider forever.
   * Nothing reads the stream before `attach` gives it the provider's body (its high-water mark is 0: no pull
   * until the caller reads).
   */
  private makeStream(): AnswerStream {
    const scrubber = createStreamRewriter(this.call.rewrites);
    let body: Readable | undefined;
    let status = 0;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let providerBytes = 0;
    let over = false;
    const idle = idleCallersOf(this.call.timeouts.idleMs);
    const watch: IdleWatch = {
      waitingSince: 0,
      stalled: () => {
        if (over) return;
        over = true;
        this.finish(499, providerBytes);
        body?.destroy();
        controller.error(new Error("The caller stopped reading the answer."));
      },
    };
    const stop = () => {
      idle.forget(watch);
      body?.destroy();
    };
    // undici's body read as its async iterator reads it (`read()` on "readable": what arrived since, in one
    // buffer, so one write to the caller), without the iterator's promise per read and its set-up per call
    // (bench:router zero-latency profile 2026-11-29: ~5% of the hub's CPU per streamed call). Read only when
    // the caller pulls: back-pressure to the provider.
    let waiting = false;
    const passOn = () => {
      if (!body) return;
      for (;;) {
        const chunk = body.read() as Buffer | null;
        if (chunk === null) {
          waiting = true; // "readable" calls again
          return;
        }
        providerBytes += chunk.byteLength;
        const data = scrubber.push(chunk);
        if (data.byteLength === 0) continue;
        waiting = false;
        controller.enqueue(data);
        watch.waitingSince = performance.now();
        return;
      }
    };
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (streamController) => {
          controller = streamController;
        },
        pull: () => {
          watch.waitingSince = 0;
          passOn();
        },
        cancel: () => {
          over = true;
          stop();
          this.finish(499, providerBytes);
        },
      },
      { highWaterMark: 0 },
    );
    const attach = (providerBody: Readable, answerStatus: number) => {
      body = providerBody;
      status = answerStatus;
      idle.watch(watch);
      body.on("readable", () => {
        if (waiting && !over) passOn();
      });
      body.once("end", () => {
        idle.forget(watch);
        if (over) return;
        over = true;
        const rest = scrubber.end();
        if (rest.byteLength > 0) controller.enqueue(rest);
        controller.close();
        this.finish(status, providerBytes);
      });
      body.once("error", (error) => {
        idle.forget(watch);
        if (over) return;
        over = true;
        this.finish(this.call.signal?.aborted ? 499 : 502, providerBytes);
        controller.error(error);
      });
    };
    return { stream, attach };
  }
}

/**
 * A streamed answer as the idle check sees it: when it passed on a read the caller has not taken yet (0: the
 * caller took everything), and how it ends when the caller took nothing for too long.
 */
interface IdleWatch {
  waitingSince: number;
  stalled(): void;
}

/**
 * The streamed answers of one idle limit, checked together: every quarter of the limit while any is watched,
 * an answer whose caller has not taken a read for the limit is ended (so within 1.25× the limit). It replaces a
 * timer per call made on the way to the caller's first event and re-armed on every event (the head path's
 * profile, 2026-11-30-router-stream.md: the timer's setTimeout 3.5% of that window; a re-arm ~1-2 µs an event).
 */
class IdleCallers {
  private readonly watched = new Set<IdleWatch>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: number) {}

  watch(answer: IdleWatch): void {
    this.watched.add(answer);
    if (this.sweep) return;
    this.sweep = setInterval(() => this.check(), Math.max(1, Math.floor(this.idleMs / 4)));
    this.sweep.unref();
  }

  forget(answer: IdleWatch): void {
    this.watched.delete(answer);
  }

  private check(): void {
    // Stopped by the sweep itself once nothing is watched: answers one after another keep one interval.
    if (this.watched.size === 0) {
      clearInterval(this.sweep);
      this.sweep = undefined;
      return;
    }
    const now = performance.now();
    for (const answer of this.watched) {
      if (answer.waitingSince === 0 || now - answer.waitingSince < this.idleMs) continue;
      this.watched.delete(answer);
      answer.stalled();
    }
  }
}

/** One idle check per idle limit (the hub's default, and each own provider's own). */
const idleCallers = new Map<number, IdleCallers>();

function idleCallersOf(idleMs: number): IdleCallers {
  let callers = idleCallers.get(idleMs);
  if (!callers) {
    callers = new IdleCallers(idleMs);
    idleCallers.set(idleMs, callers);
  }
  return callers;
}

/** A streamed answer's stream, and how the provider's body is given to it once its head is in. */
interface AnswerStream {
  stream: ReadableStream<Uint8Array>;
  attach(body: Readable, status: number): void;
}

/** What readUpTo read: the bytes, whether it stopped at the limit, and whether reading failed. */
interface ReadBody {
  bytes: Buffer;
  cut: boolean;
  failed: boolean;
}

/**
 * Reads a body up to `limit` bytes: what was read, whether it was cut there, and a failure while reading.
 * Plain events rather than `for await`: every JSON answer is read here, and the async iterator's set-up per
 * body (`createAsyncIterator` and the end-of-stream watch it installs) was ~2.5% of the hub's CPU per JSON
 * call at steady state (perf, bench/results/2026-11-30-router-percall.md).
 */
function readUpTo(body: Readable, limit: number): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (cut: boolean, failed: boolean) => {
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.off("close", onClose);
      const bytes = chunks.length === 1 && !cut ? chunks[0]! : Buffer.concat(chunks, received);
      resolve({ bytes, cut, failed });
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.byteLength > limit) {
        done(true, false);
        // Destroyed unread, undici's body emits an AbortError: listened for, so that it is not uncaught.
        body.once("error", () => {}).destroy();
        return;
      }
      chunks.push(chunk);
      received += chunk.byteLength;
    };
    const onEnd = () => done(false, false);
    const onError = () => done(true, true);
    // Closed before its end with no error (what `for await` reports as a premature close): a failure.
    const onClose = () => done(true, true);
    body.on("data", onData);
    body.once("end", onEnd);
    body.once("error", onError);
    body.once("close", onClose);
  });
}

/**
 * The answer's content coding (gzip, br...), when it has one: the router asks for none (it sends no
 * Accept-Encoding), and cannot look for the key inside compressed bytes.
 */
function contentCoding(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header.join(",") : (header ?? "")).trim().toLowerCase();
  return value === "" || value === "identity" ? undefined : value;
}

/** What the caller is told of a provider that gave no usable answer (a 502). */
function noAnswerMessage(provider: string, error: unknown): string {
  const { name, message } = error as { name?: string; message?: string };
  if (name === "HTTPParserError") {
    // undici says "Response does not match the HTTP/1.1 protocol (<llhttp's reason>)": the reason is kept.
    const reason = /\(([^()]*)\)\s*$/.exec(String(message))?.[1] ?? String(message);
    return `Provider ${provider} sent an answer that is not valid HTTP/1.1 (${reason.slice(0, 200)}).`;
  }
  if ((error as { code?: string }).code === "UND_ERR_HEADERS_OVERFLOW") {
    return `Provider ${provider} sent response headers larger than the router reads (16 KiB).`;
  }
  if (isConnectionCut(error)) return `Provider ${provider} closed the connection before answering.`;
  return `Could not reach provider ${provider}.`;
}
