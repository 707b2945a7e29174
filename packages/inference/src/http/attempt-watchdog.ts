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
 * Every attempt here has the same timeout, so deadlines come in the order attempts start: the pending set
 * (insertion-ordered) is a queue, and the timer waits for its oldest deadline only.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 120_000;

interface Watched {
  deadline: number;
  expire(): void;
}

const pending = new Set<Watched>();
/** Whether the shared timer is set (for the oldest pending deadline, or one that has since ended). */
let armed = false;

/**
 * `sent`, unless it is still pending DEFAULT_ATTEMPT_TIMEOUT_MS from now: then rejects with `timedOut()`,
 * and `discard` receives the late value if one comes.
 */
export function watchAttempt<T>(
  sent: Promise<T>,
  timedOut: () => Error,
  discard: (late: T) => unknown,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const watched: Watched = {
      deadline: Date.now() + DEFAULT_ATTEMPT_TIMEOUT_MS,
      expire() {
        reject(timedOut());
        sent.then(discard, ignore).catch(ignore);
      },
    };
    pending.add(watched);
    if (!armed) arm(DEFAULT_ATTEMPT_TIMEOUT_MS);
    sent.then(
      (value) => {
        pending.delete(watched);
        resolve(value);
      },
      (cause: unknown) => {
        pending.delete(watched);
        reject(cause);
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
  for (const watched of pending) {
    if (watched.deadline > now) {
      arm(watched.deadline - now);
      return;
    }
    pending.delete(watched);
    watched.expire();
  }
}
