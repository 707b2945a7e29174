import { TimeoutError } from "../errors.js";
import { type CallContext, sleep } from "./call-context.js";

export type PollResult<T> = { done: true; value: T } | { done: false };

export interface PollSchedule {
  intervalMs: number;
  /** Give up after this many status checks (black-forest-labs: 5). Default: until the deadline. */
  maxAttempts?: number;
  /** What is being waited for, for the timeout message. */
  what: string;
}

/**
 * The one polling loop: wait `intervalMs`, run a step, stop when it reports done. A step throws for a
 * failure status. The job deadline, the overall deadline and the abort signal all end it with a typed error.
 */
export async function pollJob<T>(
  call: CallContext,
  step: (attempt: number) => Promise<PollResult<T>>,
  schedule: PollSchedule,
): Promise<T> {
  const deadline = Math.min(call.deadlineAt, Date.now() + call.jobDeadlineMs);
  const maxAttempts = schedule.maxAttempts ?? Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (Date.now() + schedule.intervalMs > deadline) {
      throw new TimeoutError(
        `${schedule.what} did not finish before its deadline (${attempt} status checks)`,
      );
    }
    await sleep(schedule.intervalMs, call);
    const result = await step(attempt);
    if (result.done) return result.value;
  }
  throw new TimeoutError(`${schedule.what} did not finish after ${maxAttempts} status checks`);
}
