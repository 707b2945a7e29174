import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { HubError, UnavailableError } from "../errors.js";
import { createWorkerPool } from "../jobs/worker-pool.js";
import { type Logger, silentLogger } from "../logger.js";
import type { FileRecord, RepoRecord } from "../repos/repo-records.js";
import type {
  FileScanView,
  RepoScanning,
  ScannedFile,
  SecurityFileStatus,
  SecurityRepoStatus,
} from "../repos/scan-port.js";
import { contentKey, nameClass } from "./content-key.js";
import type { FileScanReport, ScanSource } from "./scan-report.js";
import type { ScanItem, ScanTable } from "./scan-table.js";
import { securityFileStatus } from "./security-status.js";

/** SCAN_POLICY: `warn` serves every file with its status; `block` refuses the bytes of unsafe files. */
export type ScanPolicy = "warn" | "block";

/** SCAN_POLICY=block refused a file found unsafe: 403, saying what to do. */
export class UnsafeFileError extends HubError {
  constructor(path: string, repoId: string) {
    super(
      403,
      "unsafe_file",
      `${path} in ${repoId} was found unsafe by this hub's scanner (SCAN_POLICY=block) and is not served. See its scan report on the file's page or at /api/{type}s/${repoId}/scan/{revision}/${path}; an owner of the repository (or a site admin) can allow it there if it is trusted.`,
    );
  }
}

export interface ScanServiceDeps {
  table: ScanTable;
  /** The dispatcher (scan-file.ts scanFile, with its antivirus bound). */
  scanFile(source: ScanSource): Promise<FileScanReport>;
  /** SCANNER_RULES_VERSION: a report made with other rules is made again. */
  rulesVersion: string;
  /** A content to read, or undefined when this hub does not hold its bytes. */
  openSource(item: Pick<ScanItem, "sha256" | "size" | "repoKey" | "path">): Promise<ScanSource | undefined>;
  /** Whether this hub holds a mirrored repository's content yet (it is `waiting` until fetched). */
  contentHeld?(repoKey: number, sha256: string): Promise<boolean>;
  /**
   * Every repository's ref heads with their files, one revision at a time (repos/ref-files.ts): the backfill
   * queues what they hold that has no row (stored before the scanner, or a row lost).
   */
  walkRefs?(): AsyncIterable<{
    repo: Pick<RepoRecord, "key" | "mirrorOf">;
    files: readonly Pick<FileRecord, "path" | "sha256" | "size">[];
  }>;
  policy?: ScanPolicy;
  /** Scans at once in this process (SCAN_CONCURRENCY): queue workers and downloads under block together. */
  concurrency?: number;
  /** How long a claim holds before another replica may retake it (renewed while the scan runs). */
  leaseMs?: number;
  /** How often an idle worker looks for work other replicas queued. */
  pollMs?: number;
  /** Scans of one item that failed (an error, not a verdict) before it is recorded as could-not-scan. */
  maxAttempts?: number;
  /** How long a download under block waits for another replica's scan of its file. */
  waitMs?: number;
  workerId?: string;
  logger?: Logger;
  now?: () => Date;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_POLL_MS = 5_000;
const DEFAULT_WAIT_MS = 10 * 60_000;

/** A counting semaphore: at most `size` scans run at once in this process. */
function semaphore(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async acquire(): Promise<() => void> {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = waiting.shift();
        if (next) next();
        else free++;
      };
    },
  };
}

/**
 * The scan service: queues contents as commits and mirror pulls record them, scans them off the request path
 * (bounded by SCAN_CONCURRENCY; replicas share the queue through leases), keeps the reports, answers the
 * public hub's security shapes, and applies SCAN_POLICY to downloads (docs/decisions/scanning.md).
 */
export function createScanService(deps: ScanServiceDeps) {
  const { table, rulesVersion } = deps;
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger ?? silentLogger;
  const policy = deps.policy ?? "warn";
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
  const maxAttempts = deps.maxAttempts ?? 3;
  const waitMs = deps.waitMs ?? DEFAULT_WAIT_MS;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const slots = semaphore(concurrency);
  const iso = (offsetMs = 0) => new Date(now().getTime() + offsetMs).toISOString();

  const workers = createWorkerPool({
    concurrency,
    pollMs,
    workOne: () => processOne(),
    onError: (error) => logger.log("error", "scan worker failed", { error }),
  });
  const kick = workers.kick;
  /** The backfill start() began (not awaited: the hub serves meanwhile); stop() ends it between revisions. */
  let startBackfill: Promise<number> | undefined;
  let stopping = false;

  /** Scans one claimed item and stores its report (or gives it back to retry after a failure). */
  async function scanClaimed(item: ScanItem): Promise<void> {
    const renew = setInterval(() => {
      table.renewLease(item.contentKey, workerId, iso(leaseMs)).catch(() => {});
    }, leaseMs / 3);
    renew.unref();
    try {
      let report: FileScanReport;
      try {
        const source = await deps.openSource(item);
        report = source
          ? await deps.scanFile(source)
          : couldNotScan(`the content (sha256:${item.sha256}) is not held by this hub`);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (item.attempts < maxAttempts) {
          logger.log("warn", "scan failed, retrying", { contentKey: item.contentKey, reason });
          await table.release(item.contentKey, workerId);
          return;
        }
        report = couldNotScan(`the scan failed ${item.attempts} times: ${reason}`);
      }
      const stored = await table.complete(item.contentKey, workerId, { report, rulesVersion, now: iso() });
      if (!stored) logger.log("warn", "scan lease lost", { contentKey: item.contentKey });
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims and scans one queued item; false when the queue has nothing to claim. */
  async function processOne(): Promise<boolean> {
    const release = await slots.acquire();
    try {
      const item = await table.claim(workerId, iso(), iso(leaseMs));
      if (!item) return false;
      await scanClaimed(item);
      return true;
    } finally {
      release();
    }
  }

  /** Queues the files' contents (those not queued yet); mirrored content not fetched yet waits for it. */
  async function enqueue(
    repo: Pick<RepoRecord, "key" | "mirrorOf">,
    files: readonly Pick<FileRecord, "path" | "sha256" | "size">[],
  ): Promise<number> {
    const unique = new Map<string, (typeof files)[number]>();
    for (const file of files) unique.set(contentKey(file.sha256, file.path), file);
    // Contents already queued are left as they are (scanned once): only new keys are looked at.
    const known = await table.many([...unique.keys()]);
    const rows = [];
    for (const [key, file] of unique) {
      if (known.has(key)) continue;
      const waiting =
        repo.mirrorOf !== undefined && deps.contentHeld && !(await deps.contentHeld(repo.key, file.sha256));
      rows.push({
        contentKey: key,
        sha256: file.sha256,
        nameClass: nameClass(file.path),
        path: file.path,
        size: file.size,
        repoKey: repo.key,
        status: waiting ? ("waiting" as const) : ("pending" as const),
      });
    }
    const added = await table.enqueue(rows, iso());
    if (added > 0) kick();
    return added;
  }

  /**
   * Queues every file of every repository's ref heads (branches, tags, pull requests) that has no row: content
   * stored before the scanner existed, or whose row was lost. One revision's files at a time (enqueue looks
   * up only their keys); `stopped` ends it between revisions (start's walk, when the service stops). Returns
   * how many rows it added.
   */
  async function backfill(stopped: () => boolean = () => false): Promise<number> {
    if (!deps.walkRefs) return 0;
    let queued = 0;
    for await (const { repo, files } of deps.walkRefs()) {
      if (stopped()) break;
      queued += await enqueue(repo, files);
    }
    if (queued > 0) logger.log("info", "queued files stored before scanning", { queued });
    return queued;
  }

  /** Whether an item's report stands (made with the current rules). */
  const current = (item: ScanItem | undefined): boolean =>
    item?.status === "done" && item.rulesVersion === rulesVersion;

  /**
   * The item of a file, scanned now if it is not yet (SCAN_POLICY=block: a download waits for its file's
   * scan; another replica's running scan is waited for). `fetch` brings a mirrored content not held yet.
   */
  async function scanNow(
    repo: Pick<RepoRecord, "key" | "mirrorOf">,
    file: ScannedFile,
    fetch?: () => Promise<void>,
  ): Promise<ScanItem> {
    const key = contentKey(file.sha256, file.path);
    const deadline = now().getTime() + waitMs;
    let fetched = false;
    for (;;) {
      let item = await table.get(key);
      if (item && current(item)) return item;
      if (!item) {
        await enqueue(repo, [file]);
        item = await table.get(key);
      } else if (item.status === "done") {
        await table.requeueKey(key);
      }
      if (item?.status === "waiting") {
        if (deps.contentHeld && (await deps.contentHeld(item.repoKey, item.sha256))) {
          await table.contentArrived(item.sha256);
        } else if (fetch && !fetched) {
          fetched = true;
          await fetch();
          continue;
        }
      }
      const release = await slots.acquire();
      try {
        const claimed = await table.claimKey(key, workerId, iso(), iso(leaseMs));
        if (claimed) {
          await scanClaimed(claimed);
          continue;
        }
      } finally {
        release();
      }
      if (now().getTime() > deadline) {
        throw new UnavailableError(
          `${file.path} is still being scanned (SCAN_POLICY=block serves a file once its scan is done): try again in a few minutes.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function itemsOf(files: readonly ScannedFile[]): Promise<Map<string, ScanItem>> {
    return table.many(files.map((file) => contentKey(file.sha256, file.path)));
  }

  async function view(
    repo: RepoRecord,
    file: ScannedFile,
    item: ScanItem | undefined,
  ): Promise<FileScanView> {
    const allowance = await table.allowance(repo.key, file.sha256);
    const report = item?.status === "done" ? item.report : undefined;
    const unsafe = report?.verdict === "unsafe";
    return {
      path: file.path,
      sha256: file.sha256,
      size: file.size,
      securityFileStatus: securityFileStatus(item),
      scanState: item ? (item.status === "pending" ? "queued" : item.status) : "unscanned",
      ...(report
        ? {
            verdict: report.verdict,
            ...(report.reason ? { reason: report.reason } : {}),
            antivirus: report.antivirus,
            rulesVersion: item?.rulesVersion,
            scannedAt: item?.scannedAt,
          }
        : {}),
      scanners: report?.scanners ?? [],
      findings: report?.findings ?? [],
      policy,
      downloadable: policy === "warn" || !unsafe || allowance !== undefined,
      ...(allowance ? { allowed: { by: allowance.allowedBy, at: allowance.allowedAt } } : {}),
    };
  }

  const scanning: RepoScanning = {
    async fileStatuses(files) {
      const items = await itemsOf(files);
      const statuses = new Map<string, SecurityFileStatus>();
      for (const file of files) {
        statuses.set(file.path, securityFileStatus(items.get(contentKey(file.sha256, file.path))));
      }
      return statuses;
    },

    async repoStatus(files): Promise<SecurityRepoStatus> {
      const items = await itemsOf(files);
      let scansDone = true;
      const filesWithIssues: SecurityRepoStatus["filesWithIssues"] = [];
      for (const file of files) {
        const item = items.get(contentKey(file.sha256, file.path));
        if (item?.status !== "done") {
          scansDone = false;
          continue;
        }
        const status = securityFileStatus(item).status;
        if (status === "unsafe" || status === "suspicious")
          filesWithIssues.push({ path: file.path, level: status });
      }
      return { scansDone, filesWithIssues };
    },

    async report(repo, file) {
      return view(repo, file, await table.get(contentKey(file.sha256, file.path)));
    },

    async assertServable(repo, file, fetch) {
      if (policy === "warn") return;
      const item = await scanNow(repo, file, fetch);
      if (item.report?.verdict !== "unsafe") return;
      if (await table.allowance(repo.key, file.sha256)) return;
      throw new UnsafeFileError(file.path, repo.id);
    },

    async assertContentServable(repoKey, sha256) {
      if (policy === "warn") return;
      const verdicts = (await table.verdictsOf([sha256])).get(sha256) ?? [];
      if (!verdicts.includes("unsafe")) return;
      if (await table.allowance(repoKey, sha256)) return;
      throw new UnsafeFileError(`The file of sha256:${sha256}`, "this repository");
    },

    async allow(repo, file, by) {
      await table.allow({
        repoKey: repo.key,
        sha256: file.sha256,
        path: file.path,
        allowedBy: by,
        allowedAt: iso(),
      });
      return scanning.report(repo, file);
    },
  };

  return {
    ...scanning,
    policy,
    rulesVersion,
    workerId,
    enqueue,
    /** Mirrored content was fetched and stored: its waiting items become pending. */
    async contentArrived(sha256: string): Promise<void> {
      if ((await table.contentArrived(sha256)) > 0) kick();
    },
    /**
     * Starts the workers (SCAN_CONCURRENCY of them). Reports made with older rules are queued again first:
     * a new SCANNER_RULES_VERSION re-scans what the hub holds. Files that have no row are then queued in the
     * background (backfill): start does not wait for the walk over every repository.
     */
    async start(): Promise<void> {
      if (workers.running) return;
      stopping = false;
      const requeued = await table.requeueStale(rulesVersion);
      if (requeued > 0) logger.log("info", "re-scanning with new scanner rules", { requeued, rulesVersion });
      workers.start();
      startBackfill = backfill(() => stopping).catch((error: unknown) => {
        logger.log("error", "queueing files stored before scanning failed; the admin re-scan retries", {
          error,
        });
        return 0;
      });
    },
    /** The backfill start() began: how many rows it added (0 when none ran). */
    backfilled: (): Promise<number> => startBackfill ?? Promise.resolve(0),
    /** Stops taking new items, ends the backfill, and waits for the scans under way to end. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all([workers.stop(), startBackfill]);
    },
    /** Scans until nothing is left to claim (tests, the admin command); returns how many were scanned. */
    async drain(): Promise<number> {
      let scanned = 0;
      while (await processOne()) scanned++;
      return scanned;
    },
    /**
     * The admin's re-scan: every report is queued again, and every file of every ref head that has no row is
     * queued (the backfill, awaited). `requeued` counts the reports, `queued` the rows added.
     */
    async rescanAll(): Promise<{ requeued: number; queued: number }> {
      const requeued = await table.requeueStale(undefined);
      kick();
      return { requeued, queued: await backfill() };
    },
    /** How many items are in each state, and how many reports found issues. */
    status: () => table.counts(),
  };
}

export type ScanService = ReturnType<typeof createScanService>;

function couldNotScan(reason: string): FileScanReport {
  return {
    verdict: "could-not-scan",
    scanners: [],
    pickleImports: [],
    findings: [],
    antivirus: { status: "not-scanned", virusNames: [], reason },
    reason,
  };
}
