import { CLOSED_CODE, type Connection, type PooledCall, sendOnPool } from "./upstream-pool.js";

/**
 * The router's HTTP/1.1 client: keep-alive connection pools to the providers, one per origin, each call an
 * exchange whose provider head, body chunks and end go straight to the router's handler (no streams, request
 * objects or header objects per call). Written for the router rather than taken from undici or node:http,
 * whose clients cost the router its benchmark bar: node:http's streams and agent bookkeeping, and undici's
 * yield to the event loop before every request on a reused connection (see bench/results/2026-11-27-router.md).
 * What undici's yield guards against (stray bytes a provider sent on an idle connection being read as the
 * next call's answer) is kept another way: a connection that fell idle is handed out again from the next turn
 * of the event loop, after its socket was polled (upstream-pool.ts).
 */

/** Where one upstream's calls go, parsed once (no URL object per call). */
export interface UpstreamTarget {
  /** `http(s)://host[:port]`: the pool the call goes to. */
  origin: string;
  /** The base URL's path, without a trailing slash; the provider path is appended to it. */
  pathPrefix: string;
  /** The Host header: the host name, with the port when not the default one. */
  host: string;
}

export interface UpstreamCall {
  method: string;
  path: string;
  /** A flat `[name, value, ...]` list, with the Host header in it. */
  headers: string[];
  body: Buffer | undefined;
  /** Until the provider's head arrives. */
  headersTimeoutMs: number;
  /** The longest silence between two reads of the provider's body. */
  bodyTimeoutMs: number;
}

/** What a handler gets to pause, resume or abort its call. */
export interface UpstreamController {
  /** Ends the call now (its connection is closed); the handler's onResponseError gets `reason`. */
  abort(reason: Error): void;
  /** Stops reading the provider's body (back-pressure) until resume(). */
  pause(): void;
  resume(): void;
  /**
   * Whether the call went out on a keep-alive connection an earlier call had used: a cut before the answer
   * then most likely means the provider closed it while idle and never saw the call. On a new connection it
   * means the provider took the call and failed: sending it again might do the work twice.
   */
  readonly reusedConnection: boolean;
}

/** One call's handler: told of the call's start, the provider's head, each body chunk, the end or a failure. */
export interface UpstreamHandler {
  onRequestStart(controller: UpstreamController): void;
  /** The final head (informational 1xx heads are skipped): see AnswerEvents.onHead. */
  onResponseStart(
    controller: UpstreamController,
    status: number,
    headers: string[],
    bodyLength: number,
  ): void;
  onResponseData(controller: UpstreamController, chunk: Buffer): void;
  onResponseEnd(controller: UpstreamController): void;
  onResponseError(controller: UpstreamController, error: Error & { code?: string }): void;
}

/** The error code of a provider that did not send its head in time. */
export const HEADERS_TIMEOUT_CODE = "UPSTREAM_HEADERS_TIMEOUT";
/** The error code of a provider whose body went silent for longer than the call allows. */
const BODY_TIMEOUT_CODE = "UPSTREAM_BODY_TIMEOUT";
/** The error code of a call held back (paused) by its caller for longer than a body may be silent. */
export const CALLER_STALLED_CODE = "CALLER_STALLED";

export { CLOSED_CODE };

/**
 * Whether an error means the provider's connection was cut before it answered (reset, or closed by the other
 * side): on a pooled keep-alive connection this is how a provider that closed it while idle shows, and the
 * call never reached it.
 */
export function isConnectionCut(error: Error & { code?: string }): boolean {
  return error.code === "ECONNRESET" || error.code === "EPIPE" || error.code === CLOSED_CODE;
}

class UpstreamTimeout extends Error {
  constructor(
    readonly code: string,
    what: string,
    ms: number,
  ) {
    super(`The provider's ${what} did not arrive within ${ms} ms.`);
    this.name = "UpstreamTimeout";
  }
}

/**
 * The caller read nothing of a streamed answer for as long as a provider may be silent: the call is ended
 * rather than hold a provider connection (and the pool's room) for a caller that may never read again.
 */
class CallerStalled extends Error {
  readonly code = CALLER_STALLED_CODE;
  constructor(ms: number) {
    super(`The caller read nothing of the answer for ${ms} ms.`);
    this.name = "CallerStalled";
  }
}

/** What a request line or header may not hold: a line break would start another header or request. */
const LINE_BREAK = /[\r\n\0]/;

/** One call: the handler's controller, and what the connection reports of the provider's answer. */
class Exchange implements UpstreamController, PooledCall {
  connection: Connection | undefined;
  private done = false;
  private headArrived = false;
  paused = false;
  private pausedSince = 0;
  reusedConnection = false;
  /** When the call was written, then when the provider last sent a byte of it (performance.now()). */
  lastActivity = 0;

  constructor(
    readonly call: UpstreamCall,
    private readonly handler: UpstreamHandler,
  ) {}

  get finished(): boolean {
    return this.done;
  }

  abort(reason: Error): void {
    this.fail(reason);
  }

  pause(): void {
    if (!this.paused) this.pausedSince = performance.now();
    this.paused = true;
    this.connection?.socket.pause();
  }

  resume(): void {
    this.paused = false;
    this.lastActivity = performance.now();
    this.connection?.socket.resume();
  }

  onHead(status: number, headers: string[], bodyLength: number): void {
    this.headArrived = true;
    this.handler.onResponseStart(this, status, headers, bodyLength);
  }

  onBody(chunk: Buffer): void {
    if (!this.done) this.handler.onResponseData(this, chunk);
  }

  onEnd(reusable: boolean): void {
    if (this.done) return;
    this.done = true;
    const connection = this.connection;
    this.connection = undefined;
    connection?.release(reusable);
    this.handler.onResponseEnd(this);
  }

  /** Ends the call with an error (reported once; nothing after). */
  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    const connection = this.connection;
    this.connection = undefined;
    connection?.destroy();
    this.handler.onResponseError(this, error);
  }

  /** Called by the sweep: fails a call whose provider, or whose caller holding it back, was silent too long. */
  checkDeadline(now: number): void {
    if (this.paused) {
      if (now - this.pausedSince >= this.call.bodyTimeoutMs)
        this.fail(new CallerStalled(this.call.bodyTimeoutMs));
      return;
    }
    if (!this.headArrived) {
      if (now - this.lastActivity >= this.call.headersTimeoutMs) {
        this.fail(new UpstreamTimeout(HEADERS_TIMEOUT_CODE, "head", this.call.headersTimeoutMs));
      }
    } else if (now - this.lastActivity >= this.call.bodyTimeoutMs) {
      this.fail(new UpstreamTimeout(BODY_TIMEOUT_CODE, "next body bytes", this.call.bodyTimeoutMs));
    }
  }
}

/** The request head: request line, headers, the empty line. */
function requestHead(call: UpstreamCall): string {
  if (LINE_BREAK.test(call.method) || LINE_BREAK.test(call.path)) {
    throw new TypeError("A request line may not hold a line break.");
  }
  let head = `${call.method} ${call.path} HTTP/1.1\r\n`;
  const { headers } = call;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (LINE_BREAK.test(value) || LINE_BREAK.test(name)) {
      throw new TypeError(`Header ${name.slice(0, 40)} may not hold a line break.`);
    }
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n`;
}

/** Starts a call on the keep-alive pool of the target's origin; `handler` sees the rest. */
export function dispatchUpstream(target: UpstreamTarget, call: UpstreamCall, handler: UpstreamHandler): void {
  const exchange = new Exchange(call, handler);
  handler.onRequestStart(exchange);
  if (exchange.finished) return;
  let head: string;
  try {
    head = requestHead(call);
  } catch (error) {
    exchange.fail(error as Error);
    return;
  }
  sendOnPool(target.origin, exchange, head);
}
