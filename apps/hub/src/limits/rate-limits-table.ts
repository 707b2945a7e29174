import type { Queryable } from "../store/database.js";

/** One caller's requests in one bucket and window, as a replica adds them. */
export interface RateLimitDelta {
  bucket: string;
  subject: string;
  windowStart: number;
  count: number;
}

/** Rows per INSERT: one statement for many callers (a prepared statement per slice size). */
const MAX_ROWS = 64;
const addRows = (rows: number) => `
  INSERT INTO rate_limit_counts (bucket, subject, window_start, count)
  VALUES ${Array.from({ length: rows }, () => "(?, ?, ?, ?)").join(", ")}
  ON CONFLICT (bucket, subject, window_start) DO UPDATE SET count = rate_limit_counts.count + excluded.count
  RETURNING bucket, subject, window_start, count`;
const ADD_ROWS = new Map<number, string>();
for (let rows = 1; rows <= MAX_ROWS; rows *= 2) ADD_ROWS.set(rows, addRows(rows));

/** The rate-limit counters every replica shares (migration 30). */
export function createRateLimitsTable(q: Queryable) {
  return {
    /**
     * Adds each delta to its row and answers every row's total after the addition (this replica's counts and
     * every other's): one statement per 64 callers, in power-of-two slices.
     */
    async add(deltas: readonly RateLimitDelta[]): Promise<RateLimitDelta[]> {
      const totals: RateLimitDelta[] = [];
      let at = 0;
      while (at < deltas.length) {
        let rows = MAX_ROWS;
        while (rows > deltas.length - at) rows /= 2;
        const slice = deltas.slice(at, at + rows);
        at += rows;
        const found = await q.all<{
          bucket: string;
          subject: string;
          window_start: number | string;
          count: number | string;
        }>(
          ADD_ROWS.get(rows)!,
          slice.flatMap((d) => [d.bucket, d.subject, d.windowStart, d.count]),
        );
        for (const row of found) {
          totals.push({
            bucket: row.bucket,
            subject: row.subject,
            windowStart: Number(row.window_start),
            count: Number(row.count),
          });
        }
      }
      return totals;
    },
    /** Deletes the rows of windows that started before `windowStart` (they can no longer refuse anything). */
    pruneBefore(windowStart: number): Promise<number> {
      return q.run("DELETE FROM rate_limit_counts WHERE window_start < ?", [windowStart]);
    },
  };
}

export type RateLimitsTable = ReturnType<typeof createRateLimitsTable>;
