import { UPLOAD_TTL_MS } from "../lfs-xet/lfs-grants.js";
import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";

/**
 * Blobs younger than this are never collected: longer than an upload URL lives, so that no upload in flight
 * (bytes stored, commit not made yet) loses its content.
 */
export const DEFAULT_GC_GRACE_MS = UPLOAD_TTL_MS + 60 * 60 * 1000;

export interface GcReport {
  /** Blobs looked at. */
  scanned: number;
  /** Still needed by a commit, an upload or a Xet xorb. */
  referenced: number;
  /** Unreferenced but younger than the grace period (or of unknown age): kept. */
  recent: number;
  /** Removed (or, with dryRun, that would be). */
  deleted: number;
  bytesFreed: number;
  /** Abandoned-upload records pruned first. */
  prunedUploads: number;
  dryRun: boolean;
}

/**
 * Removes blobs nothing references any more: content of deleted repositories, uploads never committed, part
 * blobs of abandoned multipart uploads. First prunes the records that alone kept such content alive (uploads
 * older than the grace period that their repository never committed), then sweeps the blob store: a blob is
 * removed only if nothing references it and it was stored before the grace period, and the driver checks
 * that time again as it removes it (a put of the same content refreshes it), so uploads in flight are safe.
 */
export async function collectBlobGarbage(options: {
  store: Store;
  blobs: BlobStore;
  now?: number;
  graceMs?: number;
  dryRun?: boolean;
}): Promise<GcReport> {
  const { store, blobs, dryRun = false } = options;
  const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? DEFAULT_GC_GRACE_MS);
  const references = store.blobReferences;
  const pruned = dryRun ? { uploads: 0 } : await references.pruneUnreferenced(new Date(cutoff).toISOString());
  const report: GcReport = {
    scanned: 0,
    referenced: 0,
    recent: 0,
    deleted: 0,
    bytesFreed: 0,
    prunedUploads: pruned.uploads,
    dryRun,
  };
  for await (const sha256 of blobs.list()) {
    report.scanned++;
    if (await references.isReferenced(sha256)) {
      report.referenced++;
      continue;
    }
    const info = await blobs.head(sha256);
    if (!info) continue;
    if (info.modifiedAt === undefined || info.modifiedAt >= cutoff) {
      report.recent++;
      continue;
    }
    if (!dryRun) {
      // Checked again right before removing: a commit may have referenced it since.
      if (await references.isReferenced(sha256)) {
        report.referenced++;
        continue;
      }
      await blobs.delete(sha256, { unlessModifiedSince: cutoff });
      if (await blobs.head(sha256)) {
        report.recent++;
        continue;
      }
    }
    report.deleted++;
    report.bytesFreed += info.size;
  }
  return report;
}
