import type { Logger } from "../base-types.js";
import { AbortError, TimeoutError } from "../errors.js";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "./attempt-watchdog.js";
import type { RetryPolicy } from "./retry-policy.js";

/**
 * Everything one client call shares across its HTTP requests (main request, polls, downloads, stream):
 * the fetch to use, the caller's signal merged with the overall deadline, and the retry policy.
 */
export interface CallContext {
  fetch: typeof fetch;
  /** Fires when the caller aborts or the overall deadline passes. */
  signal: AbortSignal;
  /**
   * Whether anything can fire `signal` (a caller signal or an overall timeout). When nothing can, no
   * signal is handed to fetch: an AbortSignal costs undici listeners on every request.
   */
  abortable: boolean;
  /** Absolute time (ms since epoch) the whole call must finish by; Infinity when unbounded. */
  deadlineAt: number;
  /** Per-attempt wait for the response headers; undefined when turned off (0). */
  timeoutMs: number | undefined;
  /**
   * Whether an attempt that times out is aborted (the caller set `timeoutMs`), or only abandoned (the
   * default watchdog: see `sendRequest`).
   */
  abortsTimedOutAttempt: boolean;
  jobDeadlineMs: number;
  retry: RetryPolicy;
  includeCredentials: boolean;
  logger: Logger | undefined;
  /** Turns the signal's state into the typed error to throw (AbortError or TimeoutError). */
  abortError(): AbortError | TimeoutError;
  /** Releases the deadline timer and the listener on the caller's signal. */
  dispose(): void;
}

/**
 * The options a call context reads (a task call passes its `Options` as it is; types.ts documents each
 * field). Spelled out rather than picked from `Options`, which names the provider registry: picking it
 * would tie this module to every provider's module.
 */
export interface CallContextInit {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  totalTimeoutMs?: number;
  timeoutMs?: number;
  jobDeadlineMs?: number;
  includeCredentials?: boolean;
  logger?: Logger;
}
/**
 * The signal of calls nothing can abort: creating an AbortController per call costs more than a request's
 * JSON. Made on first use: creating one at import time loads node's event-target internals (import cost).
 */
let neverAborted: AbortSignal | undefined;
const NEVER_ABORTED = () => {
  neverAborted ??= new AbortController().signal;
  return neverAborted;
};

/** The global fetch, looked up at call time (tests and polyfills may replace it after import). */
const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

export function createCallContext(init: CallContextInit, retry: RetryPolicy): CallContext {
  return new Call(init, retry);
}

/**
 * A class rather than an object of closures: a call is made per request, and its methods are then shared
 * through the prototype instead of being created (and, under some transpilers, named) on every call.
 */
class Call implements CallContext {
  readonly fetch: typeof fetch;
  readonly signal: AbortSignal;
  readonly abortable: boolean;
  readonly deadlineAt: number;
  readonly timeoutMs: number | undefined;
  readonly abortsTimedOutAttempt: boolean;
  readonly jobDeadlineMs: number;
  readonly retry: RetryPolicy;
  readonly includeCredentials: boolean;
  readonly logger: Logger | undefined;
  private readonly totalTimeoutMs: number | undefined;
  private readonly callerSignal: AbortSignal | undefined;
  private onCallerAbort: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;

  constructor(init: CallContextInit, retry: RetryPolicy) {
    this.fetch = init.fetch ?? globalFetch;
    this.abortable = init.signal !== undefined || init.totalTimeoutMs !== undefined;
    this.totalTimeoutMs = init.totalTimeoutMs;
    this.deadlineAt =
      init.totalTimeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + init.totalTimeoutMs;
    // A hung provider must not be waited on forever, three times over: each attempt has a deadline for its
    // response headers unless the caller turns it off with 0.
    this.timeoutMs =
      init.timeoutMs === undefined
        ? DEFAULT_ATTEMPT_TIMEOUT_MS
        : init.timeoutMs > 0
          ? init.timeoutMs
          : undefined;
    this.abortsTimedOutAttempt = init.timeoutMs !== undefined;
    this.jobDeadlineMs = init.jobDeadlineMs ?? 600_000;
    this.retry = retry;
    this.includeCredentials = init.includeCredentials ?? false;
    this.logger = init.logger;
    if (!this.abortable) {
      this.signal = NEVER_ABORTED();
      return;
    }
    const controller = new AbortController();
    this.signal = controller.signal;
    const caller = init.signal;
    if (caller?.aborted) controller.abort(caller.reason);
    else if (caller) {
      this.callerSignal = caller;
      this.onCallerAbort = () => controller.abort(caller.reason);
      caller.addEventListener("abort", this.onCallerAbort, { once: true });
    }
    if (init.totalTimeoutMs !== undefined && !controller.signal.aborted) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        controller.abort();
      }, init.totalTimeoutMs);
    }
  }

  abortError(): AbortError | TimeoutError {
    return this.timedOut
      ? new TimeoutError(`Request exceeded the overall timeout of ${this.totalTimeoutMs} ms`)
      : new AbortError("The request was aborted by the caller");
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.onCallerAbort) this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** A wait that ends early (rejecting with the typed error) when the call is aborted or times out. */
export function sleep(ms: number, call: CallContext): Promise<void> {
  return new Promise((resolve, reject) => {
    if (call.signal.aborted) return reject(call.abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(call.abortError());
    };
    const timer = setTimeout(() => {
      call.signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    call.signal.addEventListener("abort", onAbort, { once: true });
  });
}
