import type { BlobStore } from "../storage/blob-store.js";
import type { XetGcTable } from "./xet-gc-table.js";

/**
 * How long an upload may take between its steps: xorbs before their shard, a shard before its commit. Nothing
 * younger is collected, and a xorb stays marked this long before it is deleted (a client that was told about
 * it by a dedup answer just before it was marked can still register its file, which keeps it).
 */
export const XET_GC_GRACE_MS = 24 * 60 * 60 * 1000;
/** A claim older than this belongs to a collector that stopped midway: another run finishes its work. */
const STALE_CLAIM_MS = 60 * 60 * 1000;

export interface XetGcReport {
  /** Files registered by shards but never committed within the grace period. */
  filesDeleted: number;
  /** Xorbs no file uses, marked by this run (deleted by a run a grace period later). */
  xorbsMarked: number;
  xorbsDeleted: number;
  bytesFreed: number;
}

/**
 * One garbage-collection pass over Xet storage: drop files no commit uses (older than the grace period), mark
 * xorbs no file uses, and delete the xorbs marked at least a grace period ago that are still unused, blob
 * first, row second. Safe to run on several hubs at once and while uploads go on (see xet-gc-table.ts).
 */
export async function collectXetGarbage(
  deps: { gc: XetGcTable; blobs: BlobStore },
  options: { now?: Date; graceMs?: number } = {},
): Promise<XetGcReport> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - (options.graceMs ?? XET_GC_GRACE_MS));
  const filesDeleted = (await deps.gc.deleteUncommittedFiles(before)).length;
  // Claim what earlier runs marked before marking anew, so a xorb is always marked for a full grace period.
  const claimed = await deps.gc.claimMarkedXorbs(before, new Date(now.getTime() - STALE_CLAIM_MS), now);
  const xorbsMarked = (await deps.gc.markUnusedXorbs(before, now)).length;
  let bytesFreed = 0;
  for (const xorb of claimed) {
    // The driver keeps a blob stored again since the cutoff (the same bytes put by some other upload).
    if (!(await deps.gc.blobUsedElsewhere(xorb.blobSha256, xorb.hash))) {
      await deps.blobs.delete(xorb.blobSha256, { unlessModifiedSince: before.getTime() });
    }
    await deps.gc.deleteClaimedXorb(xorb.hash);
    bytesFreed += xorb.size;
  }
  return { filesDeleted, xorbsMarked, xorbsDeleted: claimed.length, bytesFreed };
}
