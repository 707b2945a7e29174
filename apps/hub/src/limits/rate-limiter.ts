/**
 * Fixed-window request counting, cheap per request and shared by replicas (docs/decisions/rate-limits.md).
 * A request only touches a Map in memory; every `syncMs` the replica adds what it counted to the database
 * (one batched upsert) and learns each caller's total over every replica from the same statement. The error
 * this allows is bounded: a caller can exceed its limit by at most what the other replicas admitted for it
 * during one sync interval, and never in a window this replica has not synced at least once.
 */
import type { Logger } from "../logger.js";
import type { RateLimitDelta, RateLimitsTable } from "./rate-limits-table.js";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

interface Counter {
  bucket: string;
  subject: string;
  windowStart: number;
  /** The caller's requests in this window as far as this replica knows: every replica's at the last sync, plus its own since. */
  total: number;
  /** This replica's requests not yet added to the database. */
  pending: number;
  /** Asked about since the last sync (admitted or refused): its total is refreshed at the next sync. */
  touched: boolean;
}

export interface RateLimiterOptions {
  table: RateLimitsTable;
  windowSeconds: number;
  syncMs: number;
  now?: () => number;
  logger?: Logger;
}

export function createRateLimiter(options: RateLimiterOptions) {
  const windowMs = options.windowSeconds * 1000;
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let timer: NodeJS.Timeout | undefined;
  /** Syncs run one after another: one asked for during another still sends what was counted meanwhile. */
  let chain: Promise<void> = Promise.resolve();
  let running = 0;
  let prunedWindow = 0;

  /** Counts one request of `subject` in `bucket` against `limit`, unless it would exceed it. */
  function hit(bucket: string, subject: string, limit: number): RateLimitDecision {
    const at = now();
    const windowStart = at - (at % windowMs);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
    const key = `${bucket} ${subject}`;
    let counter = counters.get(key);
    if (counter === undefined) {
      counter = { bucket, subject, windowStart, total: 0, pending: 0, touched: true };
      counters.set(key, counter);
    } else if (counter.windowStart !== windowStart) {
      counter.windowStart = windowStart;
      counter.total = 0;
      counter.pending = 0;
    }
    counter.touched = true;
    if (counter.total >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    counter.total++;
    counter.pending++;
    return { allowed: true, limit, remaining: limit - counter.total, resetSeconds };
  }

  /** Adds this replica's counts to the database and takes back every caller's total over all replicas. */
  async function syncOnce(): Promise<void> {
    const at = now();
    const current = at - (at % windowMs);
    const deltas: RateLimitDelta[] = [];
    const sent = new Map<string, number>();
    for (const [key, counter] of counters) {
      if (counter.windowStart !== current) {
        // A past window: its counts can refuse nothing any more (a request in the new window resets it).
        counters.delete(key);
        continue;
      }
      // A caller no request asked about since the last sync needs no fresh total (nor costs a row).
      if (!counter.touched) continue;
      counter.touched = false;
      deltas.push({
        bucket: counter.bucket,
        subject: counter.subject,
        windowStart: current,
        count: counter.pending,
      });
      sent.set(key, counter.pending);
      counter.pending = 0;
    }
    try {
      if (deltas.length > 0) {
        const totals = await options.table.add(deltas);
        for (const total of totals) {
          const counter = counters.get(`${total.bucket} ${total.subject}`);
          if (counter === undefined || counter.windowStart !== total.windowStart) continue;
          // The database's total holds what was sent; add what this replica counted since.
          counter.total = Math.max(counter.total, total.count + counter.pending);
        }
      }
      if (prunedWindow !== current) {
        await options.table.pruneBefore(current);
        prunedWindow = current;
      }
    } catch (error) {
      // Not lost: added again on the next sync.
      for (const [key, count] of sent) {
        const counter = counters.get(key);
        if (counter && counter.windowStart === current) counter.pending += count;
      }
      options.logger?.log("warn", "sharing rate-limit counts failed; retried at the next sync", {
        error: String(error),
      });
    }
  }

  function sync(): Promise<void> {
    running++;
    chain = chain.then(syncOnce).finally(() => {
      running--;
    });
    return chain;
  }

  return {
    hit,
    /** Shares the counts now (tests; the timer does it every syncMs). */
    sync,
    start(): void {
      if (timer) return;
      // A slow database never piles syncs up: the timer skips a beat while one runs.
      timer = setInterval(() => {
        if (running === 0) void sync();
      }, options.syncMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await sync();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
