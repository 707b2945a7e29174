import { describe, expect, it } from "vitest";
import {
  isRetryableStatus,
  retryDelayMs,
  retryPolicy,
  serverRetryAfterMs,
  shouldRetryResponse,
} from "./retry-policy.js";

describe("retry policy", () => {
  const policy = retryPolicy(true, { baseDelayMs: 100, maxDelayMs: 1000 });

  it("retries 408, 409, 429 and 5xx only", () => {
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  it("lets x-should-retry overrule the status", () => {
    expect(shouldRetryResponse(400, new Headers({ "x-should-retry": "true" }))).toBe(true);
    expect(shouldRetryResponse(503, new Headers({ "x-should-retry": "false" }))).toBe(false);
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(retryDelayMs(policy, 1, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(policy, 1, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(policy, 3, undefined, () => 1)).toBe(400);
    expect(retryDelayMs(policy, 10, undefined, () => 1)).toBe(1000);
  });

  it("honours retry-after-ms, Retry-After seconds and dates, and refuses absurd waits", () => {
    expect(serverRetryAfterMs(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(serverRetryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    const date = new Date(Date.now() + 3000).toUTCString();
    expect(serverRetryAfterMs(new Headers({ "retry-after": date }))).toBeGreaterThan(1000);
    expect(retryDelayMs(policy, 1, new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryDelayMs(policy, 1, new Headers({ "retry-after": "3600" }))).toBeUndefined();
  });

  it("disabling retries means one attempt", () => {
    expect(retryPolicy(false, { maxAttempts: 5 }).maxAttempts).toBe(1);
  });
});
