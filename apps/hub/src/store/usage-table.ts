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

export function createUsageTable(db: Database.Database, now: () => Date) {
  const insert = db.prepare(`
    INSERT INTO usage (token_id, user_id, bill_to_id, provider, model, status, request_bytes, response_bytes,
      duration_ms, created_at)
    VALUES (@tokenId, @userId, @billToId, @provider, @model, @status, @requestBytes, @responseBytes, @durationMs,
      @createdAt)
  `);
  const summary = db.prepare<[number | null, number | null], UsageSummary>(`
    SELECT token_id AS tokenId, provider, model, count(*) AS requests,
      sum(CASE WHEN status >= 400 OR status = 0 THEN 1 ELSE 0 END) AS errors,
      sum(request_bytes) AS requestBytes, sum(response_bytes) AS responseBytes, sum(duration_ms) AS totalMs
    FROM usage WHERE (? IS NULL OR token_id = ?)
    GROUP BY token_id, provider, model ORDER BY token_id, provider, model
  `);

  // Router calls are recorded in batches: one transaction per batch instead of one per call.
  const pending: Array<UsageRecord & { createdAt: string }> = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const writeBatch = db.transaction((rows: typeof pending) => {
    for (const row of rows) insert.run(row);
  });
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length > 0) writeBatch(pending.splice(0));
  };

  return {
    /** Queues a record; it is written within 50 ms, or at once by flush(), summary() or closing the store. */
    record(usage: UsageRecord): void {
      pending.push({ userId: null, billToId: null, ...usage, createdAt: now().toISOString() });
      if (pending.length >= 500) flush();
      else flushTimer ??= setTimeout(flush, 50).unref();
    },
    flush,
    summary(tokenId?: number): UsageSummary[] {
      flush();
      return summary.all(tokenId ?? null, tokenId ?? null);
    },
  };
}

export type UsageTable = ReturnType<typeof createUsageTable>;
