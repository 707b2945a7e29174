import type { Context, MiddlewareHandler } from "hono";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { MirrorStatsSnapshot } from "../mirror/mirror-stats.js";
import type { PoolState } from "../store/database.js";
import { incomingHeader } from "./incoming-header.js";
import { createRequestMetrics } from "./request-metrics.js";

/** Latency buckets in seconds: loopback API answers take milliseconds, streamed router calls seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The hub's Prometheus metrics (prom-client), one registry per hub: request counts and latencies per route
 * (the route's pattern, never the raw path, so ids do not explode the label set), router calls per provider
 * and status, and the bytes uploaded and downloaded. `processMetrics` adds Node's own (CPU, memory, event
 * loop, handles): on for a running hub, off for an app built in a test.
 * On PostgreSQL, the connection pool's use too (watchDatabasePool); SQLite is one connection in the process.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Per request: plain numbers, handed to the registry at each scrape (request-metrics.ts).
  const requests = createRequestMetrics(registry, BUCKETS);
  // The router's counters are added up in plain numbers per call and handed to prom-client at each scrape
  // (collect): prom-client hashes a series' labels on every update, four times per router call otherwise.
  // A series appears from its first call on, as when counted directly.
  /** Router calls not yet handed over, per provider and status. */
  const routerCallCounts = new Map<string, Map<number, { count: number }>>();
  new Counter({
    name: "hub_router_calls_total",
    help: "Inference router calls, by provider and the status answered (499: the caller left first).",
    labelNames: ["provider", "status"] as const,
    registers,
    collect() {
      for (const [provider, byStatus] of routerCallCounts) {
        for (const [status, pending] of byStatus) {
          this.inc({ provider, status: String(status) }, pending.count);
          pending.count = 0;
        }
      }
    },
  });
  /** Request and answer body bytes not yet handed over, by `direction kind`; a series from its first bytes. */
  const requestBytes = new Map<string, { bytes: number }>();
  const countBytes = (series: string, bytes: number) => {
    const pending = requestBytes.get(series);
    if (pending) pending.bytes += bytes;
    else requestBytes.set(series, { bytes });
  };
  /** Router body bytes not yet handed over; undefined until the first router call. */
  let routerBytes: { upload: number; download: number } | undefined;
  const routerSeconds = new Histogram({
    name: "hub_router_call_duration_seconds",
    help: "Router calls from request to the end of the provider's answer, by provider.",
    labelNames: ["provider"] as const,
    buckets: BUCKETS,
    registers,
  });
  new Counter({
    name: "hub_transfer_bytes_total",
    help: "Bytes received (upload) and sent (download): request and response bodies of known length.",
    labelNames: ["direction", "kind"] as const,
    registers,
    collect() {
      for (const [series, pending] of requestBytes) {
        const [direction, kind] = series.split(" ");
        this.inc({ direction, kind }, pending.bytes);
        pending.bytes = 0;
      }
      if (!routerBytes) return;
      this.inc({ direction: "upload", kind: "router" }, routerBytes.upload);
      this.inc({ direction: "download", kind: "router" }, routerBytes.download);
      routerBytes.upload = 0;
      routerBytes.download = 0;
    },
  });
  const blobCalls = new Counter({
    name: "hub_blob_store_calls_total",
    help: "Calls the hub made to its object store, by operation and HTTP status (0: no answer).",
    labelNames: ["operation", "status"] as const,
    registers,
  });
  const blobSeconds = new Histogram({
    name: "hub_blob_store_call_duration_seconds",
    help: "Object store calls until the answer's headers (a whole part for uploads), by operation.",
    labelNames: ["operation"] as const,
    buckets: BUCKETS,
    registers,
  });

  // The router's latency series, looked up once per provider rather than by label set on every call (made at
  // the first call, so that a hub without router calls shows none).
  const routerSecondsOf = new Map<string, { observe(value: number): void }>();

  /** Counts one answered request: its route's count and latency, and the body bytes of known length. */
  const observeRequest = (c: Context, startedMs: number, answerHeaders: Headers) => {
    // Read once: Hono's getter maps every matched handler into a new array each time it is read.
    const routePath = c.req.routePath;
    const route = routePath === "/*" || !routePath ? "unmatched" : routePath;
    const method = c.req.method;
    requests.observe(method, route, c.res.status, (performance.now() - startedMs) / 1000);
    const uploaded = Number(incomingHeader(c, "content-length") ?? 0);
    const downloaded = method === "HEAD" ? 0 : Number(answerHeaders.get("content-length") ?? 0);
    if (uploaded <= 0 && downloaded <= 0) return;
    // Repository file bytes: downloads, LFS uploads (batch and the signed upload URLs), commits, Xet CAS.
    const kind = /\/(resolve|info\/lfs|lfs-upload|upload|preupload|commit)\b|^\/xet-cas\//.test(c.req.path)
      ? "files"
      : "api";
    if (uploaded > 0) countBytes(`upload ${kind}`, uploaded);
    if (downloaded > 0) countBytes(`download ${kind}`, downloaded);
  };

  return {
    registry,
    /** Called by the hub's request envelope (request-envelope.ts) once the answer is made. */
    observeRequest,
    /** The same as a Hono middleware of its own, for an app without the envelope. */
    middleware: ((): MiddlewareHandler => async (c, next) => {
      const started = performance.now();
      await next();
      observeRequest(c, started, c.res.headers);
    })(),
    observeRouterCall(call: {
      provider: string;
      status: number;
      durationMs: number;
      requestBytes: number;
      responseBytes: number;
    }) {
      let byStatus = routerCallCounts.get(call.provider);
      if (!byStatus) {
        byStatus = new Map();
        routerCallCounts.set(call.provider, byStatus);
      }
      let calls = byStatus.get(call.status);
      if (!calls) {
        calls = { count: 0 };
        byStatus.set(call.status, calls);
      }
      calls.count++;
      let seconds = routerSecondsOf.get(call.provider);
      if (!seconds) {
        seconds = routerSeconds.labels(call.provider);
        routerSecondsOf.set(call.provider, seconds);
      }
      seconds.observe(call.durationMs / 1000);
      routerBytes ??= { upload: 0, download: 0 };
      routerBytes.upload += call.requestBytes;
      routerBytes.download += call.responseBytes;
    },
    /** Reports the database pool's connections (total, idle) and waiting queries at every scrape. */
    watchDatabasePool(state: () => PoolState) {
      new Gauge({
        name: "hub_database_pool_connections",
        help: "PostgreSQL pool: connections open (total), not in use (idle), and queries waiting for one (waiting).",
        labelNames: ["state"] as const,
        registers,
        collect() {
          const now = state();
          this.set({ state: "total" }, now.total);
          this.set({ state: "idle" }, now.idle);
          this.set({ state: "waiting" }, now.waiting);
        },
      });
    },
    /**
     * Reports the mirror of an upstream hub at every scrape (mirror/mirror-stats.ts): reads answered from
     * the cache or fetched upstream, upstream transfers and their bytes, upstream errors by kind, evictions,
     * and the cache's size against its cap (read from the database: `cache`).
     */
    watchMirror(source: {
      stats: () => MirrorStatsSnapshot;
      cache: () => Promise<{ storedBytes: number; maxBytes: number | undefined }>;
    }) {
      /** A counter whose total the mirror keeps: set to it at each scrape. */
      const total = (
        name: string,
        help: string,
        labelNames: readonly string[],
        values: (s: MirrorStatsSnapshot) => Array<[Record<string, string>, number]>,
      ) =>
        new Counter({
          name,
          help,
          labelNames,
          registers,
          collect() {
            this.reset();
            for (const [labels, value] of values(source.stats())) this.inc(labels, value);
          },
        });
      total(
        "hub_mirror_reads_total",
        "Reads of mirrored LFS content: answered from the cache (hit) or fetched upstream (miss).",
        ["result"],
        (s) => [
          [{ result: "hit" }, s.hits],
          [{ result: "miss" }, s.misses],
        ],
      );
      total(
        "hub_mirror_upstream_transfers_total",
        "Content transfers from upstream, by outcome (stored once verified, or failed).",
        ["outcome"],
        (s) => [
          [{ outcome: "stored" }, s.transfers.stored],
          [{ outcome: "failed" }, s.transfers.failed],
        ],
      );
      total(
        "hub_mirror_upstream_bytes_total",
        "Bytes received from upstream by content transfers.",
        [],
        (s) => [[{}, s.upstreamBytes]],
      );
      total(
        "hub_mirror_upstream_errors_total",
        "Upstream failures: unreachable (or stalled), refused (status), integrity (wrong bytes), cut.",
        ["kind"],
        (s) => Object.entries(s.upstreamErrors).map(([kind, value]) => [{ kind }, value]),
      );
      total("hub_mirror_evictions_total", "Contents evicted from the mirror's cache.", [], (s) => [
        [{}, s.evictions],
      ]);
      total("hub_mirror_evicted_bytes_total", "Bytes evicted from the mirror's cache.", [], (s) => [
        [{}, s.evictedBytes],
      ]);
      new Gauge({
        name: "hub_mirror_cache_bytes",
        help: "Bytes of mirrored content kept (stored), and the cap (max; absent without MIRROR_MAX_CACHE_SIZE).",
        labelNames: ["kind"] as const,
        registers,
        async collect() {
          const cache = await source.cache();
          this.set({ kind: "stored" }, cache.storedBytes);
          if (cache.maxBytes !== undefined) this.set({ kind: "max" }, cache.maxBytes);
        },
      });
    },
    /** Reports where the hub took Xet files' sha256 from (lfs-xet/cas-service.ts) at every scrape. */
    watchXetFileSha256(sources: () => { known: number; upload: number; readBack: number }) {
      new Counter({
        name: "hub_xet_file_sha256_total",
        help:
          "Xet files whose sha256 a shard declared, by where it was checked: upload (hashed as the xorbs " +
          "arrived), known (an earlier file), read_back (the whole file read from storage, decoded and hashed " +
          "again before the shard is answered: one more pass over its bytes).",
        labelNames: ["source"] as const,
        registers,
        collect() {
          const now = sources();
          this.reset();
          this.inc({ source: "upload" }, now.upload);
          this.inc({ source: "known" }, now.known);
          this.inc({ source: "read_back" }, now.readBack);
        },
      });
    },
    /** One call of the S3 driver (storage/s3-blob-store.ts). */
    observeBlobCall(call: { operation: string; status: number; seconds: number }) {
      blobCalls.inc({ operation: call.operation, status: String(call.status) });
      blobSeconds.observe({ operation: call.operation }, call.seconds);
    },
  };
}

export type HubMetrics = ReturnType<typeof createMetrics>;
