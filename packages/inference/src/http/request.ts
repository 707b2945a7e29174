import { NetworkError, ProviderApiError, redactRequest, TimeoutError } from "../errors.js";
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  unwatch,
  type Watched,
  watch,
  watchAttempt,
} from "./attempt-watchdog.js";
import { type CallContext, sleep } from "./call-context.js";
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
 * The common case, the default per-attempt timeout, starts its first attempt in `sendWatched`: one promise
 * for the call's request and its watchdog together (no async frame of its own), as an attempt that does not
 * answer OK at once is rare and goes on in `sendWithRetries`. The per-call objects were the cost of this
 * path (bench/results/2026-11-30-inference-2.md).
 */
export function sendRequest(call: CallContext, request: HttpRequest): Promise<Response> {
  return watchesFirstAttempt(call)
    ? sendWatched(call, request, undefined)
    : sendWithRetries(call, request, 1, undefined);
}

/**
 * sendRequest, then `read` on its OK response, as one promise: under the default per-attempt timeout the
 * answer is read from the watched attempt's own callback, without the promise `.then(read)` chains on
 * sendRequest's and the hand-off between the two (the chat fast paths, tasks/send-chat.ts).
 */
export function sendRequestAndRead<T>(
  call: CallContext,
  request: HttpRequest,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  return watchesFirstAttempt(call)
    ? sendWatched(call, request, read)
    : sendWithRetries(call, request, 1, undefined).then(read);
}

const watchesFirstAttempt = (call: CallContext) =>
  call.timeoutMs !== undefined && !call.abortsTimedOutAttempt && !call.signal.aborted;

/** How an attempt made outside the retry loop ended, handed to the loop to go on from. */
type Outcome = { response: Response } | { response?: undefined; error: unknown };

/** The first attempt under the default per-attempt timeout: given up, not aborted, at its end (attempt-watchdog.ts). */
function sendWatched<T = Response>(
  call: CallContext,
  request: HttpRequest,
  read: ((response: Response) => Promise<T>) | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let sent: Promise<Response>;
    try {
      sent = call.fetch(request.url, fetchInit(call, request, call.abortable ? call.signal : undefined));
    } catch (error) {
      resolve(goOn(call, request, read, { error }));
      return;
    }
    const attempt: Watched = {
      deadline: Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS,
      newer: undefined,
      older: undefined,
      expire() {
        const error = new TimeoutError(
          `${request.provider}: no response within ${DEFAULT_ATTEMPT_TIMEOUT_MS} ms (${request.url})`,
        );
        resolve(goOn(call, request, read, { error }));
        sent.then(discardLate, ignore);
      },
    };
    watch(attempt);
    sent.then(
      (response) => {
        // Unwatched already: the attempt expired, and its late answer was discarded.
        if (!unwatch(attempt)) return;
        if (!response.ok) resolve(goOn(call, request, read, { response }));
        else if (read) read(response).then(resolve, reject);
        else resolve(response as T);
      },
      (error: unknown) => {
        if (unwatch(attempt)) resolve(goOn(call, request, read, { error }));
      },
    );
  });
}

/** The retry loop goes on from a first attempt that did not answer OK; `read` then reads its answer. */
function goOn<T>(
  call: CallContext,
  request: HttpRequest,
  read: ((response: Response) => Promise<T>) | undefined,
  outcome: Outcome,
): Promise<T> {
  const retried = sendWithRetries(call, request, 1, outcome);
  return (read ? retried.then(read) : retried) as Promise<T>;
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
  return watchAttempt(
    sent,
    () =>
      new TimeoutError(
        `${request.provider}: no response within ${DEFAULT_ATTEMPT_TIMEOUT_MS} ms (${request.url})`,
      ),
    discardLate,
  );
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
