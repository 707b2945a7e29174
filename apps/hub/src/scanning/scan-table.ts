import type { Queryable } from "../store/database.js";
import type { FileScanReport, FileVerdict } from "./scan-report.js";

/**
 * The scanner's rows (migration 23; docs/decisions/scanning.md): the queue of contents to scan and their
 * reports (`scan_queue`, one row per content key), and the opt-ins that let one unsafe content of one
 * repository be served under SCAN_POLICY=block (`scan_allowances`).
 */

export type ScanStatus = "waiting" | "pending" | "scanning" | "done";

/** One content to scan, as the queue keeps it. */
export interface ScanItem {
  /** `{sha256}:{nameClass}`: the unit scanned once (content + the name class its scanners are chosen by). */
  contentKey: string;
  sha256: string;
  nameClass: string;
  /** A repository path the content was seen under: the dispatcher chooses scanners by its name. */
  path: string;
  size: number;
  /** A repository holding it: where Xet-stored content is read from. */
  repoKey: number;
  status: ScanStatus;
  attempts: number;
  verdict: FileVerdict | undefined;
  report: FileScanReport | undefined;
  rulesVersion: string | undefined;
  claimedBy: string | undefined;
  leaseUntil: string | undefined;
  queuedAt: string;
  scannedAt: string | undefined;
}

interface ItemRow {
  content_key: string;
  sha256: string;
  name_class: string;
  path: string;
  size: number | string;
  repo_id: number | string;
  status: ScanStatus;
  attempts: number | string;
  verdict: string | null;
  report: string | null;
  rules_version: string | null;
  claimed_by: string | null;
  lease_until: string | null;
  queued_at: string;
  scanned_at: string | null;
}

const itemFromRow = (row: ItemRow): ScanItem => ({
  contentKey: row.content_key,
  sha256: row.sha256,
  nameClass: row.name_class,
  path: row.path,
  size: Number(row.size),
  repoKey: Number(row.repo_id),
  status: row.status,
  attempts: Number(row.attempts),
  verdict: (row.verdict ?? undefined) as FileVerdict | undefined,
  report: row.report ? (JSON.parse(row.report) as FileScanReport) : undefined,
  rulesVersion: row.rules_version ?? undefined,
  claimedBy: row.claimed_by ?? undefined,
  leaseUntil: row.lease_until ?? undefined,
  queuedAt: row.queued_at,
  scannedAt: row.scanned_at ?? undefined,
});

/** An opt-in to serve an unsafe content of a repository under SCAN_POLICY=block. */
export interface ScanAllowance {
  repoKey: number;
  sha256: string;
  path: string;
  allowedBy: string;
  allowedAt: string;
}

/** At most this many keys per `IN (...)` (SQLite's default variable limit is 32766; stay far below). */
const IN_BATCH = 500;
/** Rows per INSERT of enqueue() (8 values each). */
const ENQUEUE_BATCH = 100;

export function createScanTable(q: Queryable) {
  return {
    /**
     * Queues contents not queued yet (a content key already present keeps its row: scanned once). `status`
     * is `pending`, or `waiting` for mirrored content not fetched yet. Returns how many rows were added.
     */
    async enqueue(
      items: readonly {
        contentKey: string;
        sha256: string;
        nameClass: string;
        path: string;
        size: number;
        repoKey: number;
        status: "pending" | "waiting";
      }[],
      now: string,
    ): Promise<number> {
      let added = 0;
      // Many rows per statement: a commit of thousands of files is a few statements, not thousands.
      for (let start = 0; start < items.length; start += ENQUEUE_BATCH) {
        const batch = items.slice(start, start + ENQUEUE_BATCH);
        added += await q.run(
          `INSERT INTO scan_queue (content_key, sha256, name_class, path, size, repo_id, status, queued_at)
           VALUES ${batch.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} ON CONFLICT (content_key) DO NOTHING`,
          batch.flatMap((item) => [
            item.contentKey,
            item.sha256,
            item.nameClass,
            item.path,
            item.size,
            item.repoKey,
            item.status,
            now,
          ]),
        );
      }
      return added;
    },

    /** Mirrored content was fetched: its waiting rows become pending. */
    async contentArrived(sha256: string): Promise<number> {
      return q.run("UPDATE scan_queue SET status = 'pending' WHERE sha256 = ? AND status = 'waiting'", [
        sha256,
      ]);
    },

    /**
     * Claims one item for `worker` until `leaseUntil`: a pending one, or one whose scanner's lease expired
     * (a replica that died mid-scan). The UPDATE's WHERE re-checks the state it read, so of two replicas
     * racing for one row exactly one changes it; the loser tries the next candidate.
     */
    async claim(worker: string, now: string, leaseUntil: string): Promise<ScanItem | undefined> {
      for (let round = 0; round < 5; round++) {
        const candidates = await q.all<{ content_key: string; status: string; lease_until: string | null }>(
          `SELECT content_key, status, lease_until FROM scan_queue
           WHERE status = 'pending' OR (status = 'scanning' AND lease_until < ?)
           ORDER BY queued_at, content_key LIMIT 8`,
          [now],
        );
        if (candidates.length === 0) return undefined;
        for (const candidate of candidates) {
          const changed = await q.run(
            `UPDATE scan_queue SET status = 'scanning', claimed_by = ?, lease_until = ?, attempts = attempts + 1
             WHERE content_key = ? AND status = ? AND coalesce(lease_until, '') = ?`,
            [worker, leaseUntil, candidate.content_key, candidate.status, candidate.lease_until ?? ""],
          );
          if (changed === 1) return this.get(candidate.content_key);
        }
      }
      return undefined;
    },

    /** Claims one given item (a download under SCAN_POLICY=block scans it at once), as claim() does. */
    async claimKey(
      contentKey: string,
      worker: string,
      now: string,
      leaseUntil: string,
    ): Promise<ScanItem | undefined> {
      const changed = await q.run(
        `UPDATE scan_queue SET status = 'scanning', claimed_by = ?, lease_until = ?, attempts = attempts + 1
         WHERE content_key = ? AND (status = 'pending' OR (status = 'scanning' AND lease_until < ?))`,
        [worker, leaseUntil, contentKey, now],
      );
      return changed === 1 ? this.get(contentKey) : undefined;
    },

    /** Extends the lease of an item `worker` still holds (a long scan). False when it lost the item. */
    async renewLease(contentKey: string, worker: string, leaseUntil: string): Promise<boolean> {
      return (
        (await q.run(
          "UPDATE scan_queue SET lease_until = ? WHERE content_key = ? AND status = 'scanning' AND claimed_by = ?",
          [leaseUntil, contentKey, worker],
        )) === 1
      );
    },

    /** Stores the report of an item `worker` holds. False when another worker took it over meanwhile. */
    async complete(
      contentKey: string,
      worker: string,
      result: { report: FileScanReport; rulesVersion: string; now: string },
    ): Promise<boolean> {
      return (
        (await q.run(
          `UPDATE scan_queue SET status = 'done', verdict = ?, report = ?, rules_version = ?, scanned_at = ?,
             claimed_by = NULL, lease_until = NULL
           WHERE content_key = ? AND status = 'scanning' AND claimed_by = ?`,
          [
            result.report.verdict,
            JSON.stringify(result.report),
            result.rulesVersion,
            result.now,
            contentKey,
            worker,
          ],
        )) === 1
      );
    },

    /** Gives an item back to the queue (a scan that failed for a reason worth retrying). */
    async release(contentKey: string, worker: string): Promise<void> {
      await q.run(
        `UPDATE scan_queue SET status = 'pending', claimed_by = NULL, lease_until = NULL
         WHERE content_key = ? AND status = 'scanning' AND claimed_by = ?`,
        [contentKey, worker],
      );
    },

    /** Re-queues every report made with other rules than `rulesVersion` (all of them when undefined). */
    async requeueStale(rulesVersion: string | undefined): Promise<number> {
      return rulesVersion === undefined
        ? q.run("UPDATE scan_queue SET status = 'pending', attempts = 0 WHERE status = 'done'")
        : q.run(
            "UPDATE scan_queue SET status = 'pending', attempts = 0 WHERE status = 'done' AND (rules_version IS NULL OR rules_version <> ?)",
            [rulesVersion],
          );
    },

    /** Queues one done item again (its report was made with older rules). */
    async requeueKey(contentKey: string): Promise<void> {
      await q.run(
        "UPDATE scan_queue SET status = 'pending', attempts = 0 WHERE content_key = ? AND status = 'done'",
        [contentKey],
      );
    },

    async get(contentKey: string): Promise<ScanItem | undefined> {
      const row = await q.get<ItemRow>("SELECT * FROM scan_queue WHERE content_key = ?", [contentKey]);
      return row ? itemFromRow(row) : undefined;
    },

    /** The items of these content keys (those known), by key. */
    async many(contentKeys: readonly string[]): Promise<Map<string, ScanItem>> {
      const found = new Map<string, ScanItem>();
      const unique = [...new Set(contentKeys)];
      for (let start = 0; start < unique.length; start += IN_BATCH) {
        const batch = unique.slice(start, start + IN_BATCH);
        const rows = await q.all<ItemRow>(
          `SELECT * FROM scan_queue WHERE content_key IN (${batch.map(() => "?").join(", ")})`,
          batch,
        );
        for (const row of rows) found.set(row.content_key, itemFromRow(row));
      }
      return found;
    },

    /** How many items are in each status (scan:status, the admin API). */
    async counts(): Promise<Record<ScanStatus, number> & { unsafe: number; suspicious: number }> {
      const rows = await q.all<{ status: ScanStatus; n: number | string }>(
        "SELECT status, count(*) AS n FROM scan_queue GROUP BY status",
      );
      const verdicts = await q.all<{ verdict: string; n: number | string }>(
        "SELECT verdict, count(*) AS n FROM scan_queue WHERE status = 'done' GROUP BY verdict",
      );
      const counts = { waiting: 0, pending: 0, scanning: 0, done: 0, unsafe: 0, suspicious: 0 };
      for (const row of rows) counts[row.status] = Number(row.n);
      for (const row of verdicts) {
        if (row.verdict === "unsafe" || row.verdict === "suspicious") counts[row.verdict] = Number(row.n);
      }
      return counts;
    },

    async allow(allowance: ScanAllowance): Promise<void> {
      await q.run(
        `INSERT INTO scan_allowances (repo_id, sha256, path, allowed_by, allowed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repo_id, sha256) DO UPDATE SET path = excluded.path, allowed_by = excluded.allowed_by,
           allowed_at = excluded.allowed_at`,
        [allowance.repoKey, allowance.sha256, allowance.path, allowance.allowedBy, allowance.allowedAt],
      );
    },

    async allowance(repoKey: number, sha256: string): Promise<ScanAllowance | undefined> {
      const row = await q.get<{ path: string; allowed_by: string; allowed_at: string }>(
        "SELECT path, allowed_by, allowed_at FROM scan_allowances WHERE repo_id = ? AND sha256 = ?",
        [repoKey, sha256],
      );
      return row
        ? { repoKey, sha256, path: row.path, allowedBy: row.allowed_by, allowedAt: row.allowed_at }
        : undefined;
    },

    /** The verdicts known for these contents (any name class), worst first per sha256. */
    async verdictsOf(sha256s: readonly string[]): Promise<Map<string, FileVerdict[]>> {
      const found = new Map<string, FileVerdict[]>();
      const unique = [...new Set(sha256s)];
      for (let start = 0; start < unique.length; start += IN_BATCH) {
        const batch = unique.slice(start, start + IN_BATCH);
        const rows = await q.all<{ sha256: string; verdict: string }>(
          `SELECT sha256, verdict FROM scan_queue WHERE status = 'done' AND sha256 IN (${batch.map(() => "?").join(", ")})`,
          batch,
        );
        for (const row of rows) {
          found.set(row.sha256, [...(found.get(row.sha256) ?? []), row.verdict as FileVerdict]);
        }
      }
      return found;
    },
  };
}

export type ScanTable = ReturnType<typeof createScanTable>;
