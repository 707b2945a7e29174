import { HubError } from "../errors.js";

/** The local provider is busy: every slot runs a call and the queue is full. Answered 503 with Retry-After. */
export class LocalProviderBusyError extends HubError {
  constructor(
    readonly retryAfterSeconds: number,
    limits: { concurrency: number; queue: number },
  ) {
    super(
      503,
      "local_provider_busy",
      `The local llama.cpp provider is busy (${limits.concurrency} calls running, ${limits.queue} waiting): ` +
        `retry after ${retryAfterSeconds} s, or raise LOCAL_PROVIDER_CONCURRENCY / LOCAL_PROVIDER_QUEUE.`,
    );
  }
}

/**
 * At most `concurrency` calls run at once and at most `queue` wait (first come, first served); a call past
 * both is refused at once rather than held, so that a client retries instead of timing out.
 */
export function createAdmission(limits: { concurrency: number; queue: number; retryAfterSeconds: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  let peakRunning = 0;

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  return {
    /** Waits for a slot; the returned function gives it back (once). Throws LocalProviderBusyError when full. */
    async enter(signal?: AbortSignal): Promise<() => void> {
      if (running < limits.concurrency) {
        running++;
        peakRunning = Math.max(peakRunning, running);
      } else if (waiting.length < limits.queue) {
        await new Promise<void>((resolve, reject) => {
          const turn = () => {
            signal?.removeEventListener("abort", leave);
            resolve();
          };
          const leave = () => {
            const index = waiting.indexOf(turn);
            if (index >= 0) waiting.splice(index, 1);
            reject(signal?.reason ?? new Error("aborted"));
          };
          waiting.push(turn);
          signal?.addEventListener("abort", leave, { once: true });
        });
      } else {
        throw new LocalProviderBusyError(limits.retryAfterSeconds, limits);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
    /** Calls running and waiting now, and the most that ever ran at once. */
    stats: () => ({ running, waiting: waiting.length, peakRunning }),
  };
}

export type Admission = ReturnType<typeof createAdmission>;
