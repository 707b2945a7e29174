import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "undici";

/** One call's times from its start, in ms: to the first byte of the answer's body, and to its end. */
export interface CallTiming {
  /** The call's number in its run (0 to calls - 1): the same call on another side has the same number. */
  index: number;
  firstByteMs: number;
  lastByteMs: number;
}

export interface LoadRun {
  timings: CallTiming[];
  errors: number;
  /** The first failure, to say what went wrong. */
  firstError: string | undefined;
}

export interface LoadOptions {
  path: string;
  headers: Record<string, string>;
  /** The body of call number `index` (0 to calls - 1). */
  body(index: number): string;
  calls: number;
  /** Calls in flight at once, each on its own connection. */
  concurrency: number;
  /**
   * The run's opening calls spread over this many ms (connection k starts k/concurrency of it late) instead of
   * all sent at once; 0 by default. All at once, a side handles the opening calls in one turn of its event
   * loop, one after the other, and undici sends a call on a reused connection only after that turn (see
   * ../results/2026-11-30-router-firstbyte.md).
   */
  rampMs?: number;
}

/** A pool of keep-alive connections to one server, as many as the calls in flight. */
export function connect(url: string, concurrency: number): Pool {
  return new Pool(url, { connections: concurrency, pipelining: 1, keepAliveTimeout: 60_000 });
}

/**
 * Sends `calls` POSTs, `concurrency` at a time (a new one as soon as one ends), and times each from the
 * request's start to its body's first chunk and to its end. For a streamed chat the first chunk is the first
 * event; for a JSON answer, first and last byte are nearly the same.
 */
export async function runCalls(pool: Pool, options: LoadOptions): Promise<LoadRun> {
  const timings: CallTiming[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const rampMs = options.rampMs ?? 0;
  const worker = async (slot: number) => {
    if (rampMs > 0 && slot > 0) await sleep((rampMs * slot) / options.concurrency);
    for (let index = next++; index < options.calls; index = next++) {
      const started = performance.now();
      try {
        const answer = await pool.request({
          method: "POST",
          path: options.path,
          headers: options.headers,
          body: options.body(index),
        });
        if (answer.statusCode !== 200) {
          errors++;
          firstError ??= `${answer.statusCode} ${(await answer.body.text()).slice(0, 300)}`;
          continue;
        }
        let firstByte: number | undefined;
        for await (const _chunk of answer.body) firstByte ??= performance.now();
        const end = performance.now();
        timings.push({ index, firstByteMs: (firstByte ?? end) - started, lastByteMs: end - started });
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, slot) => worker(slot)));
  return { timings, errors, firstError };
}

/** The nearest-rank percentile (p in 0-1) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
