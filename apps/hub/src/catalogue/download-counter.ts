import { countsAsDownload } from "./download-rule.js";
import type { DownloadIncrement } from "./engagement-table.js";

/** A repository as the download path knows it. */
export interface CountedRepo {
  key: number;
  type: "model" | "dataset" | "space";
  id: string;
}

export interface DownloadCounterDeps {
  /** The model's `library_name`, which picks its `countDownloads` rule. */
  libraryOf(modelId: string): Promise<string | undefined>;
  addDownloads(increments: readonly DownloadIncrement[]): Promise<void>;
  /** A failed flush: the counts of that batch are lost (counting never fails a download). */
  onError(error: unknown): void;
  /** How long counts gather before one write; default 1 s. */
  flushAfterMs?: number;
  now?: () => Date;
}

/**
 * How long one client's requests of a dataset's files count as one download: the public hub treats all files
 * a user (by address) downloads from a dataset within 5 minutes as one download, GET and HEAD alike
 * (https://huggingface.co/docs/hub/datasets-download-stats).
 */
export const DATASET_DOWNLOAD_WINDOW_MS = 5 * 60_000;

/**
 * Counts downloads off the response path: `record()` only adds to a map in memory; one write per batch (at
 * most one a second) decides which requests count by the model's library rule (download-rule.ts) and adds
 * them per repository and day. A dataset counts once per client and 5-minute window, whatever it fetched;
 * a space's files are no download (the public hub counts none). A process that stops loses at most the last
 * second's counts, which a counter of popularity can afford (docs/decisions/own-counters.md).
 */
export function createDownloadCounter(deps: DownloadCounterDeps) {
  const now = deps.now ?? (() => new Date());
  const flushAfterMs = deps.flushAfterMs ?? 1000;
  let pending = new Map<string, { repo: CountedRepo; path: string; day: string; n: number }>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** When each client's current window on a dataset started (`repoKey\0client`), pruned at each flush. */
  const datasetWindows = new Map<string, number>();

  async function write(batch: typeof pending): Promise<void> {
    const libraries = new Map<string, string | undefined>();
    const totals = new Map<string, DownloadIncrement>();
    for (const { repo, path, day, n } of batch.values()) {
      // Models count by their library's rule; a dataset's request was counted as its window opened.
      if (repo.type === "model") {
        if (!libraries.has(repo.id)) libraries.set(repo.id, await deps.libraryOf(repo.id));
        if (!countsAsDownload(libraries.get(repo.id), path)) continue;
      }
      const key = `${repo.key}\0${day}`;
      const total = totals.get(key) ?? {
        repoKey: repo.key,
        day,
        downloads: 0,
        ...(repo.type === "model" ? { modelId: repo.id } : {}),
      };
      total.downloads += n;
      totals.set(key, total);
    }
    await deps.addDownloads([...totals.values()]);
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = new Map();
    const expired = now().getTime() - DATASET_DOWNLOAD_WINDOW_MS;
    for (const [key, started] of datasetWindows) if (started <= expired) datasetWindows.delete(key);
    flushing = flushing.then(() => (batch.size ? write(batch).catch(deps.onError) : undefined));
    return flushing;
  }

  return {
    /**
     * A request of `path` in `repo` by `client` (a user, or an address) was answered: a model's GET counts at
     * the next flush if its library's rule says so; a dataset's GET or HEAD counts when it opens the
     * client's 5-minute window on that dataset.
     */
    record(repo: CountedRepo, path: string, client: string): void {
      if (repo.type === "space") return;
      const at = now();
      if (repo.type === "dataset") {
        const windowKey = `${repo.key}\0${client}`;
        const started = datasetWindows.get(windowKey);
        if (started !== undefined && at.getTime() - started < DATASET_DOWNLOAD_WINDOW_MS) return;
        datasetWindows.set(windowKey, at.getTime());
      }
      const day = at.toISOString().slice(0, 10);
      const key = `${repo.key}\0${day}\0${path}`;
      const entry = pending.get(key);
      if (entry) entry.n++;
      else pending.set(key, { repo, path, day, n: 1 });
      if (!timer) {
        timer = setTimeout(() => void flush(), flushAfterMs);
        timer.unref();
      }
    },
    /** Writes what has gathered now (tests; a hub that stops). */
    flush,
  };
}

export type DownloadCounter = ReturnType<typeof createDownloadCounter>;
