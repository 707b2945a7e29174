import { AbortError, TimeoutError } from "../errors.js";
import type { Logger } from "../types.js";
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
  timeoutMs: number | undefined;
  jobDeadlineMs: number;
  retry: RetryPolicy;
  includeCredentials: boolean;
  logger: Logger | undefined;
  /** Turns the signal's state into the typed error to throw (AbortError or TimeoutError). */
  abortError(): AbortError | TimeoutError;
  /** Releases the deadline timer and the listener on the caller's signal. */
  dispose(): void;
}

export interface CallContextInit {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  totalTimeoutMs?: number;
  timeoutMs?: number;
  jobDeadlineMs?: number;
  retry: RetryPolicy;
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

export function createCallContext(init: CallContextInit): CallContext {
  const abortable = init.signal !== undefined || init.totalTimeoutMs !== undefined;
  const controller = abortable ? new AbortController() : undefined;
  let timedOut = false;
  const onCallerAbort = () => controller?.abort(init.signal?.reason);
  if (init.signal?.aborted) controller?.abort(init.signal.reason);
  else init.signal?.addEventListener("abort", onCallerAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadlineAt =
    init.totalTimeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + init.totalTimeoutMs;
  if (controller && init.totalTimeoutMs !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, init.totalTimeoutMs);
  }
  return {
    fetch: init.fetch ?? globalThis.fetch.bind(globalThis),
    signal: controller?.signal ?? NEVER_ABORTED(),
    abortable,
    deadlineAt,
    timeoutMs: init.timeoutMs,
    jobDeadlineMs: init.jobDeadlineMs ?? 600_000,
    retry: init.retry,
    includeCredentials: init.includeCredentials ?? false,
    logger: init.logger,
    abortError() {
      return timedOut
        ? new TimeoutError(`Request exceeded the overall timeout of ${init.totalTimeoutMs} ms`)
        : new AbortError("The request was aborted by the caller");
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      init.signal?.removeEventListener("abort", onCallerAbort);
    },
  };
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
