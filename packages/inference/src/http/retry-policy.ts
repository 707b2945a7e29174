import type { RetryOptions } from "../base-types.js";

/** The one written retry policy: which failures are retried, and how long to wait before the next try. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server may ask for at most this long a wait via Retry-After; longer asks are not honoured. */
  maxRetryAfterMs: number;
}

/** The policies without options, shared: a policy is read, never changed. */
const DEFAULT_POLICIES: Record<"on" | "off", RetryPolicy | undefined> = { on: undefined, off: undefined };

export function retryPolicy(enabled: boolean, options: RetryOptions | undefined): RetryPolicy {
  if (options === undefined) {
    const key = enabled ? "on" : "off";
    DEFAULT_POLICIES[key] ??= Object.freeze(makePolicy(enabled, undefined));
    return DEFAULT_POLICIES[key];
  }
  return makePolicy(enabled, options);
}

function makePolicy(enabled: boolean, options: RetryOptions | undefined): RetryPolicy {
  return {
    maxAttempts: enabled ? Math.max(1, options?.maxAttempts ?? 3) : 1,
    baseDelayMs: options?.baseDelayMs ?? 250,
    maxDelayMs: options?.maxDelayMs ?? 8_000,
    maxRetryAfterMs: 60_000,
  };
}

/** 408 timeout, 409 lock conflict, 429 rate limit and every 5xx (503 "model loading" included). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `x-should-retry` lets the server overrule the status-based decision either way. */
export function shouldRetryResponse(status: number, headers: Headers): boolean {
  const hint = headers.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  return isRetryableStatus(status);
}

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1). A server's `retry-after-ms` / `Retry-After`
 * (seconds or HTTP date) wins when it is reasonable; otherwise exponential backoff with jitter, capped.
 * Returns undefined when the server asks for a wait longer than the policy accepts.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  headers: Headers | undefined,
  random: () => number = Math.random,
): number | undefined {
  const asked = headers ? serverRetryAfterMs(headers) : undefined;
  if (asked !== undefined) return asked <= policy.maxRetryAfterMs ? asked : undefined;
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": never below half the step, so a burst of clients spreads out without collapsing to 0.
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

export function serverRetryAfterMs(headers: Headers): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
