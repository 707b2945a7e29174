/**
 * The default per-attempt timeout (a hung provider is not waited on forever), kept by one shared timer
 * instead of a timer and an AbortSignal per request. Profiled in bench/results/2026-11-29-inference.md: a
 * fresh AbortSignal handed to fetch costs undici ~40-50 µs of a ~600 µs loopback call, and a timer per call
 * (set, then cleared, on every sequential call) most of another 10-15 µs; the goal is 5 % over raw fetch.
 *
 * A timed-out attempt is given up, not aborted (aborting would need that signal): its caller gets the
 * error at once, and its response, should it ever come, is discarded. The connection is then closed by the
 * runtime's own limits (undici: 300 s without headers). Callers who set `timeoutMs` get a real abort
 * (`fetchWithAttemptTimeout` in request.ts).
 *
 * Every attempt here has the same timeout, so deadlines come in the order attempts start: the pending
 * attempts are a queue (a doubly linked list through the attempts themselves: adding and removing one
 * allocates nothing, where a Set's table was reallocated as it emptied and refilled, ~140 bytes per call),
 * and the timer waits for its oldest deadline only.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 120_000;

/** An attempt the shared timer watches: `expire` runs once its deadline passes while it is still pending. */
export interface Watched {
  deadline: number;
  expire(): void;
  /**
   * The queue's links, kept by `watch` and `unwatch` (null: the end of the queue; undefined: not queued).
   * Declared by whoever makes the object (as undefined), so that linking it does not change its shape.
   */
  newer: Watched | null | undefined;
  older: Watched | null | undefined;
}

let oldest: Watched | null = null;
let newest: Watched | null = null;
/** Whether the shared timer is set (for the oldest pending deadline, or one that has since ended). */
let armed = false;

/** Starts watching an attempt whose deadline is DEFAULT_ATTEMPT_TIMEOUT_MS from now. */
export function watch(watched: Watched): void {
  watched.older = newest;
  watched.newer = null;
  if (newest) newest.newer = watched;
  else oldest = watched;
  newest = watched;
  if (!armed) arm(DEFAULT_ATTEMPT_TIMEOUT_MS);
}

/**
 * Stops watching an attempt that settled. False when it had already expired: its caller was given the
 * timeout, and the late outcome is the watcher's to discard.
 */
export function unwatch(watched: Watched): boolean {
  if (watched.newer === undefined) return false;
  const { newer, older } = watched;
  if (newer) newer.older = older ?? null;
  else newest = older ?? null;
  if (older) older.newer = newer;
  else oldest = newer;
  watched.newer = watched.older = undefined;
  return true;
}

/**
 * `sent`, unless it is still pending DEFAULT_ATTEMPT_TIMEOUT_MS from now: then rejects with `timedOut()`,
 * and `discard` receives the late value if one comes. (The client's own requests use `watch` directly from
 * `sendRequest`, whose promise is then the only one per attempt.)
 */
export function watchAttempt<T>(
  sent: Promise<T>,
  timedOut: () => Error,
  discard: (late: T) => unknown,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const watched: Watched = {
      deadline: Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS,
      newer: undefined,
      older: undefined,
      expire() {
        reject(timedOut());
        sent.then(discard, ignore).catch(ignore);
      },
    };
    watch(watched);
    sent.then(
      (value) => {
        if (unwatch(watched)) resolve(value);
      },
      (cause: unknown) => {
        if (unwatch(watched)) reject(cause);
      },
    );
  });
}

const ignore = () => {};

function arm(ms: number): void {
  armed = true;
  const timer = setTimeout(expireDue, ms);
  // The timer outlives the calls it watched (it is not cleared when they end, so sequential calls do not
  // each set and clear one): it must not keep a Node, Bun or Deno process alive on its own.
  if (typeof timer === "object") (timer as { unref?: () => void }).unref?.();
  else (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno?.unrefTimer?.(timer);
}

function expireDue(): void {
  armed = false;
  const now = Date.now();
  while (oldest) {
    if (oldest.deadline > now) {
      arm(oldest.deadline - now);
      return;
    }
    const due = oldest;
    unwatch(due);
    due.expire();
  }
}
