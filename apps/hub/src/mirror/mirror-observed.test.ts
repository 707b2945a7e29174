import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../http/metrics.js";
import type { RepoMirror } from "../repos/mirror-port.js";
import type { RepoRecord } from "../repos/repo-records.js";
import { createReadTracker } from "./mirror-cache.js";
import { observeMirror } from "./mirror-observed.js";
import { createMirrorStats } from "./mirror-stats.js";

const repo = { key: 1, type: "model", id: "a/b", mirrorOf: "http://up" } as RepoRecord;
const file = { path: "w.bin", sha256: "a".repeat(64), size: 10 };

class UpstreamUnavailableError extends Error {
  override name = "UpstreamUnavailableError";
}

function setup(port: Partial<RepoMirror> = {}) {
  const stats = createMirrorStats();
  const reads = createReadTracker();
  const touches: string[] = [];
  let clock = 0;
  const observed = observeMirror(
    {
      lookup: async () => undefined,
      ensureRevision: async () => undefined,
      openMissingContent: async () => Readable.from([Buffer.alloc(10)]),
      ...port,
    },
    {
      stats,
      reads,
      table: { touchContent: async (sha256, at) => void touches.push(`${sha256.slice(0, 1)}@${at}`) },
      now: () => new Date(clock),
    },
  );
  return { stats, reads, touches, observed, advance: (ms: number) => (clock += ms) };
}

describe("the observed mirror port", () => {
  it("counts hits, remembers the latest read at most once a minute, and tracks reads until released", async () => {
    const { stats, reads, touches, observed, advance } = setup();
    const first = observed.trackCachedRead!(repo, file);
    const second = observed.trackCachedRead!(repo, file);
    advance(60_000);
    const third = observed.trackCachedRead!(repo, file);
    expect(stats.snapshot().hits).toBe(3);
    expect(touches).toEqual(["a@1970-01-01T00:00:00.000Z", "a@1970-01-01T00:01:00.000Z"]);
    first();
    second();
    expect(reads.isReading(file.sha256)).toBe(true);
    third();
    expect(reads.isReading(file.sha256)).toBe(false);
  });

  it("counts misses and upstream errors by kind, and rethrows them", async () => {
    const unreachable = new UpstreamUnavailableError("upstream up unreachable: ECONNREFUSED");
    const { stats, observed } = setup({
      openMissingContent: async () => {
        throw unreachable;
      },
      lookup: async () => {
        throw new Error("a bug, not upstream");
      },
    });
    await expect(observed.openMissingContent!(repo, "c".repeat(40), file, { start: 0, end: 9 })).rejects.toBe(
      unreachable,
    );
    await expect(observed.lookup("model", "a/b", { kind: "anonymous" } as never)).rejects.toThrow(/a bug/);
    const snapshot = stats.snapshot();
    expect(snapshot.misses).toBe(1);
    expect(snapshot.upstreamErrors).toEqual({ unreachable: 1, refused: 0, integrity: 0, cut: 0 });
  });

  it("counts a miss and its upstream error for an answer body as for a stream", async () => {
    const unreachable = new UpstreamUnavailableError("upstream up unreachable: ECONNREFUSED");
    let opened = 0;
    const { stats, observed } = setup({
      openMissingBody: async () => {
        if (opened++ > 0) throw unreachable;
        return new ReadableStream<Uint8Array>();
      },
    });
    await observed.openMissingBody!(repo, "c".repeat(40), file, { start: 0, end: 9 });
    await expect(observed.openMissingBody!(repo, "c".repeat(40), file, { start: 0, end: 9 })).rejects.toBe(
      unreachable,
    );
    const snapshot = stats.snapshot();
    expect(snapshot.misses).toBe(2);
    expect(snapshot.upstreamErrors.unreachable).toBe(1);
  });

  it("counts transfers and evictions as the content pull and the cache report them", () => {
    const stats = createMirrorStats();
    stats.transfer({ bytes: 100, outcome: "stored" });
    const cut = Object.assign(new Error("cut"), { name: "TransferCutError" });
    stats.transfer({ bytes: 40, outcome: "failed", error: cut });
    stats.evicted({ size: 100 });
    expect(stats.snapshot()).toEqual({
      hits: 0,
      misses: 0,
      transfers: { stored: 1, failed: 1 },
      upstreamBytes: 140,
      upstreamErrors: { unreachable: 0, refused: 0, integrity: 0, cut: 1 },
      evictions: 1,
      evictedBytes: 100,
    });
  });

  it("shows in /metrics as counters set to the mirror's totals, and the cache against its cap", async () => {
    const stats = createMirrorStats();
    const metrics = createMetrics();
    metrics.watchMirror({
      stats: stats.snapshot,
      cache: async () => ({ storedBytes: 1234, maxBytes: 10_000 }),
    });
    stats.hit();
    stats.miss();
    stats.transfer({ bytes: 500, outcome: "stored" });
    const first = await metrics.registry.metrics();
    stats.hit();
    const text = `${first}\n${await metrics.registry.metrics()}`;
    expect(text).toContain('hub_mirror_reads_total{result="hit"} 1');
    expect(text).toContain('hub_mirror_reads_total{result="hit"} 2');
    expect(text).toContain('hub_mirror_reads_total{result="miss"} 1');
    expect(text).toContain('hub_mirror_upstream_transfers_total{outcome="stored"} 1');
    expect(text).toContain("hub_mirror_upstream_bytes_total 500");
    expect(text).toContain('hub_mirror_upstream_errors_total{kind="unreachable"} 0');
    expect(text).toContain('hub_mirror_cache_bytes{kind="stored"} 1234');
    expect(text).toContain('hub_mirror_cache_bytes{kind="max"} 10000');
  });
});
