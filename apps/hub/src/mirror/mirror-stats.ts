/**
 * What the mirror did since the hub started, in plain numbers: reads answered from the cache (hits) and
 * reads that had to go upstream (misses), upstream transfers and their bytes, upstream errors by kind, and
 * evictions. /metrics reads it at each scrape (http/metrics.ts watchMirror) and the admin API shows it:
 * counting costs an addition, never a label lookup, on the download path.
 */

/** Why an upstream call failed, as the admin page groups them. */
export type UpstreamErrorKind = "unreachable" | "refused" | "integrity" | "cut";

export interface MirrorStatsSnapshot {
  hits: number;
  misses: number;
  transfers: { stored: number; failed: number };
  /** Bytes received from upstream by content transfers (stored or not). */
  upstreamBytes: number;
  upstreamErrors: Record<UpstreamErrorKind, number>;
  evictions: number;
  evictedBytes: number;
}

/**
 * The kind of an error the mirror met upstream, by its class name (the mirror's error classes live in
 * upstream-client.ts and content-pull.ts), or undefined for an error that is not upstream's doing.
 */
export function upstreamErrorKind(error: unknown): UpstreamErrorKind | undefined {
  const name = error instanceof Error ? error.name : "";
  switch (name) {
    case "UpstreamUnavailableError":
    case "TransferStalledError":
      return "unreachable";
    case "UpstreamStatusError":
      return "refused";
    case "ContentMismatchError":
    case "MirrorIntegrityError":
      return "integrity";
    case "TransferCutError":
      return "cut";
    default:
      return undefined;
  }
}

export function createMirrorStats() {
  const counts: MirrorStatsSnapshot = {
    hits: 0,
    misses: 0,
    transfers: { stored: 0, failed: 0 },
    upstreamBytes: 0,
    upstreamErrors: { unreachable: 0, refused: 0, integrity: 0, cut: 0 },
    evictions: 0,
    evictedBytes: 0,
  };
  return {
    hit(): void {
      counts.hits++;
    },
    miss(): void {
      counts.misses++;
    },
    /** One content transfer's end (content-pull.ts's `observe` takes this as it is). */
    transfer(event: { bytes: number; outcome: "stored" | "failed"; error?: Error }): void {
      counts.transfers[event.outcome]++;
      counts.upstreamBytes += event.bytes;
      if (event.error) this.upstreamError(event.error);
    },
    /** Counts an error if it is upstream's (unreachable, refused, wrong bytes, cut); false otherwise. */
    upstreamError(error: unknown): boolean {
      const kind = upstreamErrorKind(error);
      if (kind) counts.upstreamErrors[kind]++;
      return kind !== undefined;
    },
    /** One evicted content (mirror-cache.ts's `observe` takes this as it is). */
    evicted(event: { size: number }): void {
      counts.evictions++;
      counts.evictedBytes += event.size;
    },
    snapshot(): MirrorStatsSnapshot {
      return structuredClone(counts);
    },
  };
}

export type MirrorStats = ReturnType<typeof createMirrorStats>;
