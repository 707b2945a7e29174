import { NetworkError, ProviderApiError, redactRequest, TimeoutError } from "../errors.js";
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  unwatch,
  type Watched,
  watch,
  watchAttempt,
} from "./attempt-watchdog.js";
import { type CallContext, sleep } from "./call-context.js";
import { bodyReadError, isJsonResponse } from "./read-body.js";
import { retryDelayMs, shouldRetryResponse } from "./retry-policy.js";

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: BodyInit | null;
  /** Who answers: used in error messages and on ProviderApiError. */
  provider: string;
  /**
   * Rewrites the message of a non-OK answer (e.g. chat's "does not seem to support chat completion");
   * `subject` is what the message names (a module-level function and a string: no closure per request).
   */
  describeError?: (status: number, message: string, subject: string) => string;
  subject?: string;
}

/**
 * Sends one request under the call's retry policy, per-attempt timeout, deadline and abort signal.
 * Resolves with an OK response (body unread); every failure is thrown as a typed InferenceError.
 *
 * The common case, the default per-attempt timeout, starts its first attempt in `WatchedAttempt`: one
 * promise for the call's request and its watchdog together (no async frame of its own), as an attempt that
 * does not answer OK at once is rare and goes on in `sendWithRetries`. The per-call objects were the cost of this
 * path (bench/results/2026-11-30-inference-2.md).
 */
export function sendRequest(call: CallContext, request: HttpRequest): Promise<Response> {
  return watchesFirstAttempt(call)
    ? watched<Response>(call, request, undefined)
    : sendWithRetries(call, request, 1, undefined);
}

/** Whether a call's first attempt goes out as a `WatchedAttempt` (the default per-attempt timeout). */
export const watchesFirstAttempt = (call: CallContext): boolean =>
  call.timeoutMs !== undefined && !call.abortsTimedOutAttempt && !call.signal.aborted;

/** How an attempt made outside the retry loop ended, handed to the loop to go on from. */
type Outcome = { response: Response } | { response?: undefined; error: unknown };

const attemptTimeout = (provider: string, url: string) =>
  new TimeoutError(`${provider}: no response within ${DEFAULT_ATTEMPT_TIMEOUT_MS} ms (${url})`);

/**
 * sendRequest, then its OK answer read as JSON and checked by `check` (a body that is not JSON is read as a
 * Blob, for `check` to reject as the wrong shape), as one promise: the chat fast paths (tasks/send-chat.ts).
 * Under the default per-attempt timeout this is one object per call (`WatchedAttempt`), which is the attempt
 * the watchdog queues, reads the answer, and settles the call's promise: the general path's shape (a
 * watched attempt's promise, then a read chained on it, then the check chained on that) was 4 promises and
 * 6 closures a call, where a raw fetch in an async function is 1 promise
 * (bench/results/2026-11-30-inference-4.md).
 */
export function sendRequestForJson<T>(
  call: CallContext,
  request: HttpRequest,
  check: (value: unknown) => T,
): Promise<T> {
  if (!watchesFirstAttempt(call))
    return sendWithRetries(call, request, 1, undefined).then((response) => readChecked(response, check));
  return watched(call, request, check);
}

/** The first attempt under the default per-attempt timeout, and its answer's read when `check` is given. */
function watched<T>(
  call: CallContext,
  request: HttpRequest,
  check: ((value: unknown) => T) | undefined,
): Promise<T> {
  const init = fetchInit(call, request, call.abortable ? call.signal : undefined);
  const { url, provider, describeError, subject } = request;
  return sendWatched(call, url, init, provider, describeError, subject, check);
}

/**
 * A chat fast path's send (tasks/endpoint-chat.ts), for a call `watchesFirstAttempt` and nothing can abort:
 * the caller's URL and fetch options go to fetch as they are, and the `HttpRequest` the retry loop and the
 * typed errors read is made only if the attempt does not answer OK (`WatchedAttempt.request`). It was one
 * object per call kept for the failure path (bench/results/2026-11-30-inference-4.md, section 6).
 */
export function sendWatched<T>(
  call: CallContext,
  url: string,
  init: RequestInit,
  provider: string,
  describeError: HttpRequest["describeError"],
  subject: string | undefined,
  check: ((value: unknown) => T) | undefined,
): Promise<T> {
  const promise = new Promise<T>(captureSettlers);
  new WatchedAttempt(
    call,
    url,
    init,
    provider,
    describeError,
    subject,
    check,
    capturedResolve,
    capturedReject,
  );
  return promise;
}

/** The request of a fetch's URL and options, with what the retry loop and the typed errors read beside. */
export function httpRequestOf(
  url: string,
  init: RequestInit,
  provider: string,
  describeError: HttpRequest["describeError"],
  subject: string | undefined,
): HttpRequest {
  const headers = init.headers as Record<string, string>;
  return { url, method: init.method as string, headers, body: init.body, provider, describeError, subject };
}

/** An OK answer's body, parsed and checked; a body that cannot be read is a typed error. */
export function readChecked<T>(response: Response, check: (value: unknown) => T): Promise<T> {
  return (isJsonResponse(response) ? response.json() : response.blob()).then(check, (cause: unknown) => {
    throw bodyReadError(cause, response);
  });
}

// A promise's settlers, taken by a module-level executor: a closure made per call to hand them over would
// be one more function object and context a call.
let capturedResolve: (value: unknown) => void = () => {};
let capturedReject: (reason: unknown) => void = () => {};
function captureSettlers(resolve: (value: never) => void, reject: (reason: unknown) => void): void {
  capturedResolve = resolve as (value: unknown) => void;
  capturedReject = reject;
}

/**
 * The first attempt under the default per-attempt timeout (attempt-watchdog.ts: given up, not aborted, at
 * its end), and, for a JSON call, its answer's read: `onValue` and `onError` are the callbacks of both the
 * request's promise and the body's (`response` tells which one settled), so a call makes two closures and
 * the two promises `then` returns. Without `check`, the OK response itself is the call's value.
 */
class WatchedAttempt<T> implements Watched {
  // Every field is declared and assigned in the constructor, none initialized in the class body: field
  // syntax (ES2022 define semantics) runs a separate initializer function per instance, 1.6 µs a call
  // profiled over the socket (bench/results/2026-11-30-inference-4.md, section 7). Assigned arrows, not
  // arrow fields, also because a transpiler keeping function names (tsx, esbuild's keepNames) wraps an
  // arrow field in a naming call per instance.
  declare readonly deadline: number;
  declare newer: Watched | null | undefined;
  declare older: Watched | null | undefined;
  /** The OK answer once it came: from then on, the callbacks are the body's. */
  declare private response: Response | undefined;
  declare private readonly sent: Promise<Response> | undefined;
  declare private readonly onValue: (value: unknown) => void;
  declare private readonly onError: (error: unknown) => void;
  declare private readonly call: CallContext;
  declare private readonly url: string;
  declare private readonly init: RequestInit;
  // What the failure path's HttpRequest holds beside the URL and the fetch options (see `request`).
  declare private readonly provider: string;
  declare private readonly describeError: HttpRequest["describeError"];
  declare private readonly subject: string | undefined;
  declare private readonly check: ((value: unknown) => T) | undefined;
  declare private readonly resolve: (value: T | Promise<T>) => void;
  declare private readonly reject: (reason: unknown) => void;

  constructor(
    call: CallContext,
    url: string,
    init: RequestInit,
    provider: string,
    describeError: HttpRequest["describeError"],
    subject: string | undefined,
    check: ((value: unknown) => T) | undefined,
    resolve: (value: T | Promise<T>) => void,
    reject: (reason: unknown) => void,
  ) {
    this.deadline = Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.newer = undefined;
    this.older = undefined;
    this.response = undefined;
    this.sent = undefined;
    this.call = call;
    this.url = url;
    this.init = init;
    this.provider = provider;
    this.describeError = describeError;
    this.subject = subject;
    this.check = check;
    this.resolve = resolve;
    this.reject = reject;
    this.onValue = (value) => this.settled(value);
    this.onError = (error) => this.failed(error);
    try {
      this.sent = call.fetch(url, init);
    } catch (error) {
      this.goOn({ error });
      return;
    }
    watch(this);
    this.sent.then(this.onValue, this.onError);
  }

  /** The request the retry loop and the typed errors read: made only when the attempt did not answer OK. */
  private request(): HttpRequest {
    return httpRequestOf(this.url, this.init, this.provider, this.describeError, this.subject);
  }

  /** The retry loop goes on from this attempt's outcome, and reads the answer it ends with. */
  private goOn(outcome: Outcome): void {
    const { check } = this;
    const retried = sendWithRetries(this.call, this.request(), 1, outcome);
    this.resolve(check ? retried.then((response) => readChecked(response, check)) : (retried as Promise<T>));
  }

  expire(): void {
    this.goOn({ error: attemptTimeout(this.provider, this.url) });
    this.sent?.then(discardLate, ignore);
  }

  private settled(value: unknown): void {
    const { response } = this;
    if (response !== undefined) {
      let checked: T;
      try {
        checked = (this.check as (value: unknown) => T)(value);
      } catch (error) {
        this.reject(error);
        return;
      }
      this.resolve(checked);
      return;
    }
    // Unwatched already: the attempt expired, and its late answer is discarded (expire).
    if (!unwatch(this)) return;
    const answer = value as Response;
    if (!answer.ok) {
      this.goOn({ response: answer });
      return;
    }
    if (!this.check) {
      this.resolve(answer as T);
      return;
    }
    this.response = answer;
    (isJsonResponse(answer) ? answer.json() : answer.blob()).then(this.onValue, this.onError);
  }

  private failed(error: unknown): void {
    const { response } = this;
    if (response !== undefined) this.reject(bodyReadError(error, response));
    else if (unwatch(this)) this.goOn({ error });
  }
}

const discardLate = (late: Response) => late.body?.cancel().catch(ignore);
const ignore = () => {};

/**
 * The retry loop: attempts from `attempt` on; `first`, when given, is how that attempt already ended.
 * One async function for the loop and the attempt: a call is a handful of awaits, not a dozen.
 */
async function sendWithRetries(
  call: CallContext,
  request: HttpRequest,
  attempt: number,
  first: Outcome | undefined,
): Promise<Response> {
  const { retry } = call;
  for (let outcome = first; ; attempt++, outcome = undefined) {
    if (call.signal.aborted) throw call.abortError();
    const canRetry = attempt < retry.maxAttempts;
    let response: Response;
    try {
      if (outcome !== undefined && outcome.response === undefined) throw outcome.error;
      response =
        outcome?.response ??
        (await (call.timeoutMs === undefined
          ? call.fetch(request.url, fetchInit(call, request, call.abortable ? call.signal : undefined))
          : call.abortsTimedOutAttempt
            ? fetchWithAttemptTimeout(call, request, call.timeoutMs)
            : fetchWithWatchdog(call, request)));
    } catch (cause) {
      if (call.signal.aborted) throw call.abortError();
      // Network failure or per-attempt timeout: both may succeed on another try.
      const error =
        cause instanceof TimeoutError
          ? cause
          : new NetworkError(`${request.provider}: request failed: ${errorText(cause)}`, { cause });
      const delay = canRetry ? retryDelayMs(retry, attempt, undefined) : undefined;
      if (delay !== undefined && Date.now() + delay < call.deadlineAt) {
        call.logger?.debug?.(`${request.provider}: ${error.message}, retry ${attempt} in ${delay} ms`);
        await sleep(delay, call);
        continue;
      }
      throw error;
    }
    if (response.ok) return response;
    const retryable = shouldRetryResponse(response.status, response.headers);
    const delay = retryable && canRetry ? retryDelayMs(retry, attempt, response.headers) : undefined;
    if (delay !== undefined && Date.now() + delay < call.deadlineAt) {
      await response.body?.cancel().catch(() => {});
      call.logger?.debug?.(`${request.provider}: HTTP ${response.status}, retry ${attempt} in ${delay} ms`);
      await sleep(delay, call);
      continue;
    }
    throw await apiError(request, response, retryable);
  }
}

const errorText = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

function fetchInit(call: CallContext, request: HttpRequest, signal: AbortSignal | undefined): RequestInit {
  const init: RequestInit = { method: request.method, headers: request.headers, body: request.body ?? null };
  // No signal at all when nothing can abort the call: an AbortSignal costs undici listeners per request.
  if (signal) init.signal = signal;
  // Edge runtimes reject an explicit `credentials` field, so it is only present when asked for.
  if (call.includeCredentials) init.credentials = "include";
  return init;
}

/** A retry's fetch under the default per-attempt timeout: given up, not aborted, at its end. */
function fetchWithWatchdog(call: CallContext, request: HttpRequest): Promise<Response> {
  const sent = call.fetch(request.url, fetchInit(call, request, call.abortable ? call.signal : undefined));
  return watchAttempt(sent, () => attemptTimeout(request.provider, request.url), discardLate);
}

/**
 * One fetch under a per-attempt timeout the caller set, which only covers waiting for the response headers; the body
 * is bounded by the call's own signal (caller abort and overall deadline), which stays attached.
 */
async function fetchWithAttemptTimeout(
  call: CallContext,
  request: HttpRequest,
  timeoutMs: number,
): Promise<Response> {
  const attemptController = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attemptController.abort();
  }, timeoutMs);
  const signal = call.abortable
    ? AbortSignal.any([call.signal, attemptController.signal])
    : attemptController.signal;
  try {
    return await call.fetch(request.url, fetchInit(call, request, signal));
  } catch (cause) {
    if (timedOut && !call.signal.aborted) {
      throw new TimeoutError(`${request.provider}: no response within ${timeoutMs} ms (${request.url})`, {
        cause,
      });
    }
    throw cause;
  } finally {
    clearTimeout(timer);
  }
}

/** Builds the typed error for a non-OK answer, reading the JSON error / detail, or the text body. */
export async function apiError(
  request: HttpRequest,
  response: Response,
  retryable: boolean,
): Promise<ProviderApiError> {
  let body: unknown;
  let message: string;
  try {
    const text = await response.text();
    body = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    message = errorMessageFromBody(body) ?? "An error occurred while fetching the blob";
  } catch {
    message = "An error occurred while fetching the blob";
  }
  const described = request.describeError
    ? request.describeError(response.status, message, request.subject ?? request.url)
    : message;
  return new ProviderApiError(described, {
    status: response.status,
    provider: request.provider,
    requestId: response.headers.get("x-request-id") ?? response.headers.get("request-id") ?? undefined,
    request: redactRequest(request.url, request.method, request.headers),
    retryable,
    body,
  });
}

/** The human part of an error body: `error` (string or {message}), `detail`, `message`, or the text. */
export function errorMessageFromBody(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() === "" ? undefined : body;
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["error", "detail", "message"]) {
    const value = record[key];
    if (typeof value === "string") return value;
    if (typeof value === "object" && value !== null) {
      const nested = (value as Record<string, unknown>).message;
      return typeof nested === "string" ? nested : JSON.stringify(value);
    }
  }
  return JSON.stringify(body);
}
