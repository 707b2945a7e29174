import { afterEach, describe, expect, it, vi } from "vitest";

/** Fresh module state per test: the queue and its shared timer are module-level. */
async function freshWatchdog() {
  vi.resetModules();
  return import("./attempt-watchdog.js");
}

describe("attempt watchdog queue", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expires only the attempts still pending, oldest first, whatever order the others settled in", async () => {
    vi.useFakeTimers();
    const { DEFAULT_ATTEMPT_TIMEOUT_MS, watch, unwatch } = await freshWatchdog();
    const expired: string[] = [];
    const attempt = (name: string) => ({
      deadline: Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS,
      newer: undefined,
      older: undefined,
      expire: () => void expired.push(name),
    });
    const [a, b, c, d] = [attempt("a"), attempt("b"), attempt("c"), attempt("d")];
    watch(a);
    watch(b);
    watch(c);
    watch(d);
    // Settled: the newest, the oldest, one in the middle (each end of the list and its inside).
    expect(unwatch(d)).toBe(true);
    expect(unwatch(a)).toBe(true);
    expect(unwatch(a)).toBe(false);
    await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS - 1);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(["b", "c"]);
    // An expired attempt is no longer watched: its late outcome is the watcher's to discard.
    expect(unwatch(b)).toBe(false);
  });

  it("re-arms for a later attempt after the queue emptied", async () => {
    vi.useFakeTimers();
    const { DEFAULT_ATTEMPT_TIMEOUT_MS, watch, unwatch } = await freshWatchdog();
    const expired: number[] = [];
    const attempt = (n: number) => ({
      deadline: Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS,
      newer: undefined,
      older: undefined,
      expire: () => void expired.push(n),
    });
    const first = attempt(1);
    watch(first);
    unwatch(first);
    await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS / 2);
    const second = attempt(2);
    watch(second);
    // The timer set for the first attempt fires first, finds the second not yet due, and waits for it.
    await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS / 2);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS / 2);
    expect(expired).toEqual([2]);
  });
});
