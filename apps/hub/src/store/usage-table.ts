import type Database from "better-sqlite3";

export interface UsageRecord {
  tokenId: number;
  /** The user who made the call (the token's owner). */
  userId?: number | null;
  /** The organization the call was billed to (`X-HF-Bill-To`), if any. */
  billToId?: number | null;
  provider: string;
  model: string | null;
  /** HTTP status the caller received (0 when the caller went away before an answer). */
  status: number;
  requestBytes: number;
  responseBytes: number;
  durationMs: number;
}

export interface UsageSummary {
  tokenId: number;
  provider: string;
  model: string | null;
  requests: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  totalMs: number;
}

/** How long per-call usage rows are kept by default; the daily totals (usage_daily) are kept for ever. */
export const DEFAULT_USAGE_RETENTION_DAYS = 30;
/** Rows deleted per statement when pruning, so that a large backlog never holds the write lock for long. */
const PRUNE_BATCH = 5000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export function createUsageTable(
  db: Database.Database,
  now: () => Date,
  retentionDays: number = DEFAULT_USAGE_RETENTION_DAYS,
) {
  const insert = db.prepare(`
    INSERT INTO usage (token_id, user_id, bill_to_id, provider, model, status, request_bytes, response_bytes,
      duration_ms, created_at)
    VALUES (@tokenId, @userId, @billToId, @provider, @model, @status, @requestBytes, @responseBytes, @durationMs,
      @createdAt)
  `);
  const addToDay = db.prepare(`
    INSERT INTO usage_daily (day, token_id, provider, model, requests, errors, request_bytes, response_bytes,
      total_ms)
    VALUES (substr(@createdAt, 1, 10), @tokenId, @provider, ifnull(@model, ''), 1,
      CASE WHEN @status >= 400 OR @status = 0 THEN 1 ELSE 0 END, @requestBytes, @responseBytes, @durationMs)
    ON CONFLICT (day, token_id, provider, model) DO UPDATE SET
      requests = requests + 1, errors = errors + excluded.errors,
      request_bytes = request_bytes + excluded.request_bytes,
      response_bytes = response_bytes + excluded.response_bytes, total_ms = total_ms + excluded.total_ms
  `);
  // Totals come from the daily table: their cost does not grow with the number of calls, and they outlive
  // the per-call rows.
  const summary = db.prepare<[number | null, number | null], UsageSummary>(`
    SELECT token_id AS tokenId, provider, nullif(model, '') AS model, sum(requests) AS requests,
      sum(errors) AS errors, sum(request_bytes) AS requestBytes, sum(response_bytes) AS responseBytes,
      sum(total_ms) AS totalMs
    FROM usage_daily WHERE (? IS NULL OR token_id = ?)
    GROUP BY token_id, provider, model ORDER BY token_id, provider, nullif(model, '')
  `);
  const pruneBatch = db.prepare<[string, number]>(
    "DELETE FROM usage WHERE id IN (SELECT id FROM usage WHERE created_at < ? LIMIT ?)",
  );
  let lastPrune = 0;

  // Router calls are recorded in batches: one transaction per batch instead of one per call.
  const pending: Array<UsageRecord & { createdAt: string }> = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const writeBatch = db.transaction((rows: typeof pending) => {
    for (const row of rows) {
      insert.run(row);
      addToDay.run(row);
    }
  });
  /** Deletes per-call rows older than the retention, a batch at a time; returns how many went. */
  const prune = (): number => {
    lastPrune = now().getTime();
    const cutoff = new Date(lastPrune - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const { changes } = pruneBatch.run(cutoff, PRUNE_BATCH);
      deleted += changes;
      if (changes < PRUNE_BATCH) return deleted;
    }
  };
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length > 0) writeBatch(pending.splice(0));
    if (now().getTime() - lastPrune >= PRUNE_EVERY_MS) prune();
  };

  return {
    /** Queues a record; it is written within 50 ms, or at once by flush(), summary() or closing the store. */
    record(usage: UsageRecord): void {
      pending.push({ userId: null, billToId: null, ...usage, createdAt: now().toISOString() });
      if (pending.length >= 500) flush();
      else flushTimer ??= setTimeout(flush, 50).unref();
    },
    flush,
    /** Drops per-call rows older than the retention now (it also happens within the hour as calls come). */
    prune,
    summary(tokenId?: number): UsageSummary[] {
      flush();
      return summary.all(tokenId ?? null, tokenId ?? null);
    },
  };
}

export type UsageTable = ReturnType<typeof createUsageTable>;
