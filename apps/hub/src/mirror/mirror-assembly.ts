import { randomBytes } from "node:crypto";
import type { HubMetrics } from "../http/metrics.js";
import { type CasService, createCasService } from "../lfs-xet/cas-service.js";
import { XetSigner } from "../lfs-xet/xet-tokens.js";
import type { Logger } from "../logger.js";
import type { RepoMirror } from "../repos/mirror-port.js";
import { createRepoService, type RepoService } from "../repos/repo-service.js";
import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";
import { createMirrorAdmin, type MirrorAdmin } from "./mirror-admin.js";
import { createMirrorCache, createReadTracker, type MirrorCache } from "./mirror-cache.js";
import type { MirrorCommandContext } from "./mirror-commands.js";
import type { MirrorSettings } from "./mirror-config.js";
import { createMirrorContent, type MirrorContent, openPullDir } from "./mirror-content.js";
import { observeMirror } from "./mirror-observed.js";
import { mirrorPolicyFrom, OPEN_MIRROR_POLICY } from "./mirror-policy.js";
import { prefetchRevision } from "./mirror-prefetch.js";
import { createMirrorService, type MirrorService } from "./mirror-service.js";
import { createMirrorStats, type MirrorStats } from "./mirror-stats.js";
import { createUpstreamClient, type UpstreamClient } from "./upstream-client.js";

/**
 * The mirror's parts put together once, the same way for the app (routes) and the admin CLI (mirror:pull):
 * the service (lookup, revisions), the content (files on first read), the cache (eviction), the counters,
 * the repos port the routes call (counted: mirror-observed.ts) and the admin service.
 */
export interface Mirror {
  port: RepoMirror;
  service: MirrorService;
  content: MirrorContent;
  cache: MirrorCache;
  stats: MirrorStats;
  admin: MirrorAdmin;
  /** mirror:pull: a revision and all its files, through the same path as a first read. */
  pull: NonNullable<MirrorCommandContext["pull"]>;
}

export interface MirrorAssemblyDeps {
  store: Store;
  blobs: BlobStore;
  repos: RepoService;
  cas: CasService;
  upstream: UpstreamClient;
  settings: MirrorSettings;
  /** Where content is written while it is fetched (mirror-content.ts openPullDir). */
  pullDir: string;
  logger?: Logger;
  /** /metrics: the mirror's counters and cache size are added to it. */
  metrics?: HubMetrics;
  /** A content upstream declared is fetched and verified: the scanner's waiting items of it may start. */
  onContentStored?: (sha256: string) => void;
  /** Whether a repository is an untouched demo copy of a catalogue model (it gives way to upstream's). */
  isUntouchedDemoCopy?: (repoKey: number) => Promise<boolean>;
}

export function assembleMirror(deps: MirrorAssemblyDeps): Mirror {
  const { store, settings } = deps;
  const policy = mirrorPolicyFrom(settings);
  const stats = createMirrorStats();
  const reads = createReadTracker();
  const service = createMirrorService({
    store,
    repos: deps.repos,
    upstream: deps.upstream,
    settings,
    policy,
    logger: deps.logger,
    isUntouchedDemoCopy: deps.isUntouchedDemoCopy,
  });
  // The content needs the cache (room before a fetch) and the cache the content (what is being fetched).
  let content: MirrorContent | undefined;
  const cache = createMirrorCache({
    table: store.mirror,
    blobs: deps.blobs,
    maxBytes: settings.maxCacheSize,
    isReading: (sha256) => reads.isReading(sha256) || (content?.isReading(sha256) ?? false),
    observe: (event) => stats.evicted(event),
  });
  content = createMirrorContent({
    upstream: deps.upstream,
    mode: settings.mode,
    table: store.mirror,
    blobs: deps.blobs,
    cas: deps.cas,
    tmpDir: deps.pullDir,
    policy,
    observe: (event) => {
      stats.transfer(event);
      if (event.outcome === "stored") deps.onContentStored?.(event.sha256);
    },
    makeRoom: (incoming) => cache.enforce(incoming),
  });
  const opened = content;
  const port = observeMirror(
    { ...service, openMissingContent: opened.open, openMissingBody: opened.openBody },
    { stats, reads, table: store.mirror },
  );
  deps.metrics?.watchMirror({
    stats: stats.snapshot,
    cache: async () => ({
      storedBytes: (await store.mirror.cacheTotals()).storedBytes,
      maxBytes: settings.maxCacheSize,
    }),
  });
  return {
    port,
    service,
    content: opened,
    cache,
    stats,
    admin: createMirrorAdmin({ store, cache, stats, policy, settings }),
    pull: (target, revision) =>
      prefetchRevision(
        {
          store,
          repos: deps.repos,
          mirror: service,
          content: { open: (...args) => port.openMissingContent!(...args), isReading: opened.isReading },
        },
        target,
        revision,
      ),
  };
}

/**
 * The admin service of a hub that mirrors no upstream but may hold imported mirrors (mirror:import on an
 * air-gapped hub): its cache can be shown and evicted all the same.
 */
export function offlineMirrorAdmin(deps: {
  store: Store;
  blobs: BlobStore;
  metrics?: HubMetrics;
}): MirrorAdmin {
  const stats = createMirrorStats();
  const cache = createMirrorCache({
    table: deps.store.mirror,
    blobs: deps.blobs,
    maxBytes: undefined,
    isReading: () => false,
    observe: (event) => stats.evicted(event),
  });
  return createMirrorAdmin({ store: deps.store, cache, stats, policy: OPEN_MIRROR_POLICY });
}

/**
 * mirror:pull from the admin CLI: the mirror assembled in the CLI's process on the hub's store, data
 * directory and settings, exactly as the server assembles it, for one pull; its upstream connections close
 * after. (The server's cache counters do not see it; its rows and content are the server's as soon as written.)
 */
export function cliMirrorPull(deps: {
  store: Store;
  openBlobs: () => Promise<BlobStore>;
  settings: MirrorSettings;
  dataDir: string;
}): NonNullable<MirrorCommandContext["pull"]> {
  return async (target, revision) => {
    const blobs = await deps.openBlobs();
    const upstream = createUpstreamClient(deps.settings);
    try {
      const mirror = assembleMirror({
        store: deps.store,
        blobs,
        repos: createRepoService({ store: deps.store, blobs }),
        // Signing is for the URLs the CAS hands to clients; a pull hands none out.
        cas: createCasService({
          xet: deps.store.xet,
          gc: deps.store.xetGc,
          blobs,
          signer: new XetSigner(randomBytes(32)),
          casUrl: "",
        }),
        upstream,
        settings: deps.settings,
        pullDir: await openPullDir(deps.dataDir),
      });
      return await mirror.pull(target, revision);
    } finally {
      await upstream.close();
    }
  };
}
