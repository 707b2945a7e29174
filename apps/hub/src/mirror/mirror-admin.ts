import { InvalidInputError, RepoNotFoundError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { EvictionReport, MirrorCache } from "./mirror-cache.js";
import { parseMirrorTarget } from "./mirror-commands.js";
import type { MirrorMode } from "./mirror-config.js";
import type { MirrorPolicy, MirrorPolicyView } from "./mirror-policy.js";
import type { MirrorStats, MirrorStatsSnapshot } from "./mirror-stats.js";

/** What the admin API and page show of the mirror (`GET /api/admin/mirror`). */
export interface MirrorStatus {
  /** Upstream's base URL; null when this hub mirrors no upstream (it may still hold imported mirrors). */
  upstream: string | null;
  mode: MirrorMode | null;
  cache: {
    storedBytes: number;
    storedFiles: number;
    /** LFS contents mirrored repositories name, fetched or not. */
    declaredFiles: number;
    maxBytes: number | null;
    mirroredRepositories: number;
  };
  /** Since the hub started. */
  stats: MirrorStatsSnapshot;
  policy: MirrorPolicyView;
}

export interface MirrorAdminDeps {
  store: Store;
  cache: MirrorCache;
  stats: MirrorStats;
  policy: MirrorPolicy;
  settings?: { upstreamUrl: string; mode: MirrorMode };
}

/** The mirror's administration (status, eviction) for the admin API: site admins only (the routes check). */
export function createMirrorAdmin(deps: MirrorAdminDeps) {
  const { store, cache } = deps;
  return {
    async status(): Promise<MirrorStatus> {
      const totals = await store.mirror.cacheTotals();
      return {
        upstream: deps.settings?.upstreamUrl ?? null,
        mode: deps.settings?.mode ?? null,
        cache: {
          ...totals,
          maxBytes: cache.maxBytes ?? null,
          mirroredRepositories: (await store.mirror.mirroredRepoKeys()).length,
        },
        stats: deps.stats.snapshot(),
        policy: deps.policy.view(),
      };
    },

    /**
     * Evicts one mirrored repository's content (`repo`: `model/owner/name`, `datasets/owner/name`...), all
     * of it (`all`), or down to the cap (neither).
     */
    async evict(request: { repo?: string; all?: boolean }): Promise<EvictionReport & { evicted: string }> {
      if (request.repo !== undefined && request.all)
        throw new InvalidInputError("Give a repository or all, not both.");
      if (request.all) return { evicted: "all", ...(await cache.evictEverything()) };
      if (request.repo !== undefined) {
        const target = parseMirrorTarget(request.repo);
        const repo = await store.repos.get(target.type, target.id);
        if (!repo) throw new RepoNotFoundError(`${target.type}/${target.id}`);
        if (!repo.mirrorOf) {
          throw new InvalidInputError(
            `${target.type}/${target.id} is a local repository: there is no cache to evict.`,
          );
        }
        return { evicted: `${repo.type}/${repo.id}`, ...(await cache.evictRepo(repo.key)) };
      }
      if (cache.maxBytes === undefined) {
        throw new InvalidInputError("MIRROR_MAX_CACHE_SIZE is not set: name a repository, or evict all.");
      }
      return { evicted: "least recently read", ...(await cache.enforce()) };
    },
  };
}

export type MirrorAdmin = ReturnType<typeof createMirrorAdmin>;
