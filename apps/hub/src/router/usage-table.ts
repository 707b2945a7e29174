import type { Database } from "../store/database.js";

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

/** Router calls added up: how many, how many failed, the bytes each way and the time spent. */
export interface UsageTotals {
  requests: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  totalMs: number;
}

export interface UsageSummary extends UsageTotals {
  tokenId: number;
  provider: string;
  model: string | null;
}

/** How long per-call usage rows are kept by default; the daily totals (usage_daily) are kept for ever. */
export const DEFAULT_USAGE_RETENTION_DAYS = 30;
/** Rows deleted per statement when pruning, so that a large backlog never holds the write lock for long. */
const PRUNE_BATCH = 5000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The most rows one INSERT statement writes (a batch is written in power-of-two slices up to this many). */
const MAX_ROWS_PER_INSERT = 64;
const USAGE_COLUMNS = 10;
/**
 * One INSERT for `rows` rows: one statement step for up to 64 calls instead of one each (a prepared statement
 * per slice size, seven in all).
 */
const insertUsageRows = (rows: number) => `
  INSERT INTO usage (token_id, user_id, bill_to_id, provider, model, status, request_bytes, response_bytes,
    duration_ms, created_at)
  VALUES ${Array.from({ length: rows }, () => `(${Array(USAGE_COLUMNS).fill("?").join(", ")})`).join(", ")}`;
const INSERT_USAGE_ROWS = new Map<number, string>();
for (let rows = 1; rows <= MAX_ROWS_PER_INSERT; rows *= 2) INSERT_USAGE_ROWS.set(rows, insertUsageRows(rows));
const ADD_TO_DAY = `
  INSERT INTO usage_daily (day, token_id, provider, model, requests, errors, request_bytes, response_bytes,
    total_ms)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (day, token_id, provider, model) DO UPDATE SET
    requests = usage_daily.requests + excluded.requests, errors = usage_daily.errors + excluded.errors,
    request_bytes = usage_daily.request_bytes + excluded.request_bytes,
    response_bytes = usage_daily.response_bytes + excluded.response_bytes,
    total_ms = usage_daily.total_ms + excluded.total_ms`;
// Totals come from the daily table: their cost does not grow with the number of calls, and they outlive
// the per-call rows.
const SUMMARY = `
  SELECT token_id AS "tokenId", provider, nullif(model, '') AS model, sum(requests) AS requests,
    sum(errors) AS errors, sum(request_bytes) AS "requestBytes", sum(response_bytes) AS "responseBytes",
    sum(total_ms) AS "totalMs"
  FROM usage_daily WHERE (CAST(? AS INTEGER) IS NULL OR token_id = ?)
  GROUP BY token_id, provider, model ORDER BY token_id, provider, usage_daily.model`;

/** A queued record: its fields as the table takes them, and when it was made (ms since the epoch). */
interface PendingUsage extends Required<UsageRecord> {
  createdAtMs: number;
  /** Set when the batch is written (isoTimes). */
  createdAt: string;
}

/**
 * Sets each row's ISO time (as `Date.toISOString()` writes it), formatting each second once: the calls of a
 * batch share a few seconds, and a full `toISOString()` per call was a visible part of recording one.
 */
function isoTimes(rows: readonly PendingUsage[]): void {
  let second = Number.NaN;
  let prefix = "";
  for (const row of rows) {
    const ms = row.createdAtMs;
    const rowSecond = Math.floor(ms / 1000);
    if (rowSecond !== second) {
      second = rowSecond;
      prefix = new Date(rowSecond * 1000).toISOString().slice(0, -4);
    }
    const fraction = ms - rowSecond * 1000;
    row.createdAt = `${prefix}${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}Z`;
  }
}

interface DailyTotal extends UsageTotals {
  day: string;
  tokenId: number;
  provider: string;
  /** "" for calls without a model (the daily table's key cannot hold null). */
  model: string;
}

/** A batch's records added up per day, token, provider and model. */
function dailyTotals(rows: readonly PendingUsage[]): Iterable<DailyTotal> {
  const totals = new Map<string, DailyTotal>();
  let last: DailyTotal | undefined;
  for (const row of rows) {
    const model = row.model ?? "";
    let total = last;
    // Calls of one token to one model follow each other in a batch: those add up without a key per row
    // (1.90 -> 1.75 µs per recorded call, batches of 250).
    if (
      total?.tokenId === row.tokenId &&
      total.provider === row.provider &&
      total.model === model &&
      row.createdAt.startsWith(total.day)
    ) {
      addTo(total, row);
      continue;
    }
    const day = row.createdAt.slice(0, 10);
    const key = `${day}\u0000${row.tokenId}\u0000${row.provider}\u0000${model}`;
    total = totals.get(key);
    if (!total) {
      total = {
        day,
        tokenId: row.tokenId,
        provider: row.provider,
        model,
        requests: 0,
        errors: 0,
        requestBytes: 0,
        responseBytes: 0,
        totalMs: 0,
      };
      totals.set(key, total);
    }
    last = total;
    addTo(total, row);
  }
  return totals.values();
}

function addTo(total: DailyTotal, row: PendingUsage): void {
  total.requests++;
  if (row.status >= 400 || row.status === 0) total.errors++;
  total.requestBytes += row.requestBytes;
  total.responseBytes += row.responseBytes;
  total.totalMs += row.durationMs;
}

/** A record made after the store closed: nothing can write it any more. */
export class UsageTableClosedError extends Error {
  constructor() {
    super("The store is closed: a usage record made after closing cannot be written.");
    this.name = "UsageTableClosedError";
  }
}

export function createUsageTable(
  db: Database,
  now: () => Date,
  retentionDays: number = DEFAULT_USAGE_RETENTION_DAYS,
) {
  let lastPrune = 0;

  // Router calls are recorded in batches: one transaction per batch instead of one per call.
  const pending: PendingUsage[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const writeBatch = (rows: readonly PendingUsage[]) =>
    db.transaction(async (tx) => {
      isoTimes(rows);
      for (let at = 0; at < rows.length; ) {
        let size = MAX_ROWS_PER_INSERT;
        while (size > rows.length - at) size /= 2;
        const params: unknown[] = new Array(size * USAGE_COLUMNS);
        let p = 0;
        for (let i = at; i < at + size; i++) {
          const row = rows[i]!;
          params[p++] = row.tokenId;
          params[p++] = row.userId;
          params[p++] = row.billToId;
          params[p++] = row.provider;
          params[p++] = row.model;
          params[p++] = row.status;
          params[p++] = row.requestBytes;
          params[p++] = row.responseBytes;
          params[p++] = row.durationMs;
          params[p++] = row.createdAt;
        }
        await tx.run(INSERT_USAGE_ROWS.get(size)!, params);
        at += size;
      }
      // The day's totals once per (day, token, provider, model) of the batch rather than once per call.
      for (const day of dailyTotals(rows)) {
        await tx.run(ADD_TO_DAY, [
          day.day,
          day.tokenId,
          day.provider,
          day.model,
          day.requests,
          day.errors,
          day.requestBytes,
          day.responseBytes,
          day.totalMs,
        ]);
      }
    });
  /** Deletes per-call rows older than the retention, a batch at a time; returns how many went. */
  const prune = async (): Promise<number> => {
    lastPrune = now().getTime();
    const cutoff = new Date(lastPrune - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const changes = await db.run(
        "DELETE FROM usage WHERE id IN (SELECT id FROM usage WHERE created_at < ? LIMIT ?)",
        [cutoff, PRUNE_BATCH],
      );
      deleted += changes;
      if (changes < PRUNE_BATCH) return deleted;
    }
  };
  // Set by close(): "closing" while it writes what is pending, "closed" once nothing more will be written.
  let state: "open" | "closing" | "closed" = "open";
  // The write in progress: flushes run one after the other, so that a flush (close's above all) returns only
  // once every record queued before it is written, including those a background flush has taken.
  let writing: Promise<void> = Promise.resolve();
  const writePending = async (): Promise<void> => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length > 0) {
      const rows = pending.splice(0);
      try {
        await writeBatch(rows);
      } catch (error) {
        // Keep the records for the next flush rather than lose them (a database restart, a lock timeout).
        pending.unshift(...rows);
        throw error;
      }
    }
    if (state === "open" && now().getTime() - lastPrune >= PRUNE_EVERY_MS) await prune();
  };
  const flush = (): Promise<void> => {
    const run = writing.then(writePending);
    writing = run.catch(() => {});
    return run;
  };
  const flushInBackground = () =>
    flush().catch((error: unknown) => {
      // Once closing, close() writes what is left and reports its own failure: no retry after the end.
      if (state !== "open") return;
      console.error("Writing usage records failed; retrying:", error);
      flushTimer ??= setTimeout(flushInBackground, 1000).unref();
    });

  return {
    /** Queues a record; it is written within 50 ms, or at once by flush(), summary() or closing the store. */
    record(usage: UsageRecord): void {
      if (state === "closed") throw new UsageTableClosedError();
      // A fixed-shape object, no spread: this runs once per router call.
      pending.push({
        tokenId: usage.tokenId,
        userId: usage.userId ?? null,
        billToId: usage.billToId ?? null,
        provider: usage.provider,
        model: usage.model,
        status: usage.status,
        requestBytes: usage.requestBytes,
        responseBytes: usage.responseBytes,
        durationMs: usage.durationMs,
        createdAtMs: now().getTime(),
        createdAt: "",
      });
      // While closing, close() writes it before the database closes.
      if (state === "closing") return;
      if (pending.length >= 500) void flushInBackground();
      else flushTimer ??= setTimeout(flushInBackground, 50).unref();
    },
    flush,
    /**
     * Writes every record queued until now (waiting for a write in progress) and refuses later ones: call it
     * before closing the database, which nothing here touches afterwards (no timer, no retry).
     */
    async close(): Promise<void> {
      if (state === "open") state = "closing";
      try {
        // Records made while a flush runs (a stream ending during shutdown) are written by the next round.
        do await flush();
        while (pending.length > 0);
      } finally {
        state = "closed";
        clearTimeout(flushTimer);
        flushTimer = undefined;
      }
    },
    /** Drops per-call rows older than the retention now (it also happens within the hour as calls come). */
    prune,
    async summary(tokenId?: number): Promise<UsageSummary[]> {
      await flush();
      return db.all<UsageSummary>(SUMMARY, [tokenId ?? null, tokenId ?? null]);
    },
  };
}

export type UsageTable = ReturnType<typeof createUsageTable>;
