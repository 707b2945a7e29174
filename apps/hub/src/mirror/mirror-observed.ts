import type { RepoMirror } from "../repos/mirror-port.js";
import type { ReadTracker } from "./mirror-cache.js";
import type { MirrorStats } from "./mirror-stats.js";
import type { MirrorTable } from "./mirror-table.js";

/** A content's latest read is written at most this often (a busy file is not one UPDATE per range read). */
const TOUCH_INTERVAL_MS = 60_000;
/** Contents whose last touch is remembered; beyond this the memory is cleared (touches just repeat). */
const TOUCH_MEMORY = 10_000;

export interface ObservedMirrorDeps {
  stats: MirrorStats;
  /** Reads of stored content in progress (the cache's `isReading` asks it too). */
  reads: ReadTracker;
  table: Pick<MirrorTable, "touchContent">;
  now?: () => Date;
}

/**
 * The repos port of the mirror (mirror-port.ts) with its reads counted: misses (content fetched upstream),
 * hits (content served from here, each remembered as the content's latest read for eviction order and
 * tracked while it streams so that eviction leaves it alone), and upstream errors by kind. The app wraps
 * the mirror service's port in it; the service stays free of bookkeeping.
 */
export function observeMirror(port: RepoMirror, deps: ObservedMirrorDeps): RepoMirror {
  const now = deps.now ?? (() => new Date());
  const touched = new Map<string, number>();
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      deps.stats.upstreamError(error);
      throw error;
    }
  };
  const openMissingContent = port.openMissingContent?.bind(port);
  const openMissingBody = port.openMissingBody?.bind(port);
  const replaceDemoCopy = port.replaceDemoCopy?.bind(port);
  return {
    lookup: (type, id, actor) => counted(() => port.lookup(type, id, actor)),
    ensureRevision: (repo, revision) => counted(() => port.ensureRevision(repo, revision)),
    ...(replaceDemoCopy ? { replaceDemoCopy: (repo) => counted(() => replaceDemoCopy(repo)) } : {}),
    ...(openMissingContent
      ? {
          openMissingContent(repo, commitOid, file, range) {
            deps.stats.miss();
            return counted(() => openMissingContent(repo, commitOid, file, range));
          },
        }
      : {}),
    ...(openMissingBody
      ? {
          openMissingBody(repo, commitOid, file, range) {
            deps.stats.miss();
            return counted(() => openMissingBody(repo, commitOid, file, range));
          },
        }
      : {}),
    trackCachedRead(_repo, file) {
      deps.stats.hit();
      const at = now();
      const last = touched.get(file.sha256);
      if (last === undefined || at.getTime() - last >= TOUCH_INTERVAL_MS) {
        if (touched.size >= TOUCH_MEMORY) touched.clear();
        touched.set(file.sha256, at.getTime());
        // Not awaited: the order of eviction may lag a read by a moment; the download must not wait for it.
        deps.table.touchContent(file.sha256, at.toISOString()).catch(() => touched.delete(file.sha256));
      }
      return deps.reads.track(file.sha256);
    },
  };
}
