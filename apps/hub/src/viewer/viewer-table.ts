import type { Queryable } from "../store/database.js";
import type { ConversionResult } from "./viewer-records.js";

/**
 * The dataset viewer's rows (migration 25, viewer-migration.ts): one conversion job per dataset repository,
 * with the commit of main it converts, a lease while a worker converts it (as the scanner's queue:
 * scanning/scan-table.ts), and the last result or the reason it failed; and (migrations 49 and 51,
 * viewer-index-files-migration.ts and viewer-parquet-files-migration.ts) the full-text index files and the
 * Parquet cache files kept for each dataset.
 */

export type ViewerJobStatus = "pending" | "running" | "done" | "error";

export interface ViewerJob {
  repoKey: number;
  /** The commit of main to convert (a newer commit replaces it while the job waits or runs). */
  commitOid: string;
  status: ViewerJobStatus;
  attempts: number;
  claimedBy: string | undefined;
  leaseUntil: string | undefined;
  queuedAt: string;
  finishedAt: string | undefined;
  /** The commit the stored result (or error) is about. */
  convertedOid: string | undefined;
  result: ConversionResult | undefined;
  error: string | undefined;
}

interface JobRow {
  repo_id: number | string;
  commit_oid: string;
  status: ViewerJobStatus;
  attempts: number | string;
  claimed_by: string | null;
  lease_until: string | null;
  queued_at: string;
  finished_at: string | null;
  converted_oid: string | null;
  result: string | null;
  error: string | null;
}

const jobFromRow = (row: JobRow): ViewerJob => ({
  repoKey: Number(row.repo_id),
  commitOid: row.commit_oid,
  status: row.status,
  attempts: Number(row.attempts),
  claimedBy: row.claimed_by ?? undefined,
  leaseUntil: row.lease_until ?? undefined,
  queuedAt: row.queued_at,
  finishedAt: row.finished_at ?? undefined,
  convertedOid: row.converted_oid ?? undefined,
  result: row.result ? (JSON.parse(row.result) as ConversionResult) : undefined,
  error: row.error ?? undefined,
});

/**
 * Which dataset uses which file of a cache named by content (full-text indexes, Parquet files): files are
 * shared by datasets of the same content, so one is removed only when no dataset lists it any more. The
 * table and column names are the hub's own constants.
 */
function cacheFileList(
  q: Queryable,
  table: "viewer_index_files" | "viewer_parquet_files",
  key: "index_key" | "sha256",
  at: "built_at" | "cached_at",
) {
  return {
    async record(repoKey: number, fileKey: string, now: string): Promise<void> {
      await q.run(
        `INSERT INTO ${table} (repo_id, ${key}, ${at}) VALUES (?, ?, ?)
         ON CONFLICT (repo_id, ${key}) DO NOTHING`,
        [repoKey, fileKey, now],
      );
    },
    async of(repoKey: number): Promise<string[]> {
      const rows = await q.all<{ file_key: string }>(
        `SELECT ${key} AS file_key FROM ${table} WHERE repo_id = ? ORDER BY ${key}`,
        [repoKey],
      );
      return rows.map((row) => row.file_key);
    },
    async all(): Promise<string[]> {
      const rows = await q.all<{ file_key: string }>(`SELECT DISTINCT ${key} AS file_key FROM ${table}`);
      return rows.map((row) => row.file_key);
    },
    async repos(): Promise<number[]> {
      const rows = await q.all<{ repo_id: number | string }>(
        `SELECT DISTINCT repo_id FROM ${table} ORDER BY repo_id`,
      );
      return rows.map((row) => Number(row.repo_id));
    },
    async forget(repoKey: number, fileKeys: readonly string[]): Promise<string[]> {
      const unused: string[] = [];
      for (const fileKey of fileKeys) {
        await q.run(`DELETE FROM ${table} WHERE repo_id = ? AND ${key} = ?`, [repoKey, fileKey]);
        const other = await q.get(`SELECT 1 AS held FROM ${table} WHERE ${key} = ? LIMIT 1`, [fileKey]);
        if (!other) unused.push(fileKey);
      }
      return unused;
    },
  };
}

export function createViewerTable(q: Queryable) {
  const indexFiles = cacheFileList(q, "viewer_index_files", "index_key", "built_at");
  const parquetFiles = cacheFileList(q, "viewer_parquet_files", "sha256", "cached_at");
  return {
    /**
     * Queues the conversion of `commitOid`. A job already queued or running takes the newer commit (a running
     * one keeps its lease: when it completes, complete() sees the commit changed and leaves the job pending).
     */
    async enqueue(repoKey: number, commitOid: string, now: string): Promise<void> {
      await q.run(
        `INSERT INTO viewer_jobs (repo_id, commit_oid, status, queued_at) VALUES (?, ?, 'pending', ?)
         ON CONFLICT (repo_id) DO UPDATE SET commit_oid = excluded.commit_oid, queued_at = excluded.queued_at,
           attempts = 0,
           status = CASE WHEN viewer_jobs.status = 'running' THEN 'running' ELSE 'pending' END`,
        [repoKey, commitOid, now],
      );
    },

    /**
     * Claims one job for `worker` until `leaseUntil`: a pending one, or a running one whose lease expired (a
     * replica that died mid-conversion). The UPDATE re-checks what it read: of two racing replicas one wins.
     */
    async claim(worker: string, now: string, leaseUntil: string): Promise<ViewerJob | undefined> {
      for (let round = 0; round < 5; round++) {
        const candidates = await q.all<{
          repo_id: number | string;
          status: string;
          lease_until: string | null;
        }>(
          `SELECT repo_id, status, lease_until FROM viewer_jobs
           WHERE status = 'pending' OR (status = 'running' AND lease_until < ?)
           ORDER BY queued_at, repo_id LIMIT 8`,
          [now],
        );
        if (candidates.length === 0) return undefined;
        for (const candidate of candidates) {
          const changed = await q.run(
            `UPDATE viewer_jobs SET status = 'running', claimed_by = ?, lease_until = ?, attempts = attempts + 1
             WHERE repo_id = ? AND status = ? AND coalesce(lease_until, '') = ?`,
            [worker, leaseUntil, candidate.repo_id, candidate.status, candidate.lease_until ?? ""],
          );
          if (changed === 1) return this.get(Number(candidate.repo_id));
        }
      }
      return undefined;
    },

    async renewLease(repoKey: number, worker: string, leaseUntil: string): Promise<boolean> {
      return (
        (await q.run(
          "UPDATE viewer_jobs SET lease_until = ? WHERE repo_id = ? AND status = 'running' AND claimed_by = ?",
          [leaseUntil, repoKey, worker],
        )) === 1
      );
    },

    /**
     * Records the outcome of converting `commitOid`. When a newer commit was queued meanwhile the outcome is
     * still kept (it is the latest finished one) but the job goes back to pending for the new commit.
     */
    async finish(
      repoKey: number,
      worker: string,
      outcome: { commitOid: string; now: string; result?: ConversionResult; error?: string },
    ): Promise<boolean> {
      return (
        (await q.run(
          `UPDATE viewer_jobs SET
             status = CASE WHEN commit_oid = ? THEN ? ELSE 'pending' END,
             attempts = CASE WHEN commit_oid = ? THEN attempts ELSE 0 END,
             claimed_by = NULL, lease_until = NULL, finished_at = ?, converted_oid = ?, result = ?, error = ?
           WHERE repo_id = ? AND status = 'running' AND claimed_by = ?`,
          [
            outcome.commitOid,
            outcome.error === undefined ? "done" : "error",
            outcome.commitOid,
            outcome.now,
            outcome.commitOid,
            outcome.result ? JSON.stringify(outcome.result) : null,
            outcome.error ?? null,
            repoKey,
            worker,
          ],
        )) === 1
      );
    },

    /** Gives a job back to the queue (a failure worth retrying). */
    async release(repoKey: number, worker: string): Promise<void> {
      await q.run(
        `UPDATE viewer_jobs SET status = 'pending', claimed_by = NULL, lease_until = NULL
         WHERE repo_id = ? AND status = 'running' AND claimed_by = ?`,
        [repoKey, worker],
      );
    },

    async get(repoKey: number): Promise<ViewerJob | undefined> {
      const row = await q.get<JobRow>("SELECT * FROM viewer_jobs WHERE repo_id = ?", [repoKey]);
      return row ? jobFromRow(row) : undefined;
    },

    /**
     * Notes that this hub built the full-text index file `indexKey` for a dataset (migration 49), so that it
     * is removed once no conversion of the dataset uses it.
     */
    recordIndexFile: indexFiles.record,
    /** The index files built for a dataset. */
    indexFiles: indexFiles.of,
    /** Every listed index file, of every dataset. */
    allIndexFiles: indexFiles.all,
    /** The datasets that have index files (some may be deleted since: their rows outlive them). */
    indexFileRepos: indexFiles.repos,
    /**
     * Forgets a dataset's index files; answers those no other dataset uses (two datasets of the same
     * content share an index file): the files to remove.
     */
    forgetIndexFiles: indexFiles.forget,

    /**
     * Notes that this hub cached the Parquet file `sha256` for a dataset (migration 51), so that it is
     * removed once no conversion of the dataset uses it.
     */
    recordParquetFile: parquetFiles.record,
    /** The Parquet cache files listed for a dataset. */
    parquetFiles: parquetFiles.of,
    /** Every listed Parquet cache file, of every dataset. */
    allParquetFiles: parquetFiles.all,
    /** The datasets that have Parquet cache files (some may be deleted since). */
    parquetFileRepos: parquetFiles.repos,
    /** Forgets a dataset's Parquet cache files; answers those no other dataset uses: the files to remove. */
    forgetParquetFiles: parquetFiles.forget,

    async counts(): Promise<Record<ViewerJobStatus, number>> {
      const rows = await q.all<{ status: ViewerJobStatus; n: number | string }>(
        "SELECT status, count(*) AS n FROM viewer_jobs GROUP BY status",
      );
      const counts = { pending: 0, running: 0, done: 0, error: 0 };
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },
  };
}

export type ViewerTable = ReturnType<typeof createViewerTable>;
