/**
 * Storage quotas per user and per organization, private and public repositories separately (STORAGE_QUOTAS),
 * counted from what the owner's repositories reference, each distinct content once (storage-usage-table.ts).
 * Every upload path asks `assertRoom` before it stores an upload's bytes: LFS batch (limits the objects it
 * hands out upload URLs for), commits with inline files, and git push (git/ calls it with the pushed blobs).
 * Xet uploads (lfs-xet/cas-routes.ts) are checked per xorb and per shard (XetQuotaCheck); their bytes count as
 * pending until a commit references them (quota_pending_uploads), for at most a write token's life.
 */
import type { StorageUsageView } from "../api/types.js";
import type { Actor } from "../auth/actor.js";
import { roleIn } from "../auth/actor.js";
import { AuthenticationRequiredError, PermissionDeniedError } from "../auth/auth-errors.js";
import { HubError, NotFoundError } from "../errors.js";
import { XET_TOKEN_SECONDS } from "../lfs-xet/xet-tokens.js";
import type { Store } from "../store/store.js";

const GB = 1000 ** 3;

/** Bytes allowed; undefined: no limit. */
export interface VisibilityQuota {
  private?: number;
  public?: number;
}

export interface StorageQuotaPolicy {
  user: VisibilityQuota;
  organization: VisibilityQuota;
  /** Per user or organization name (lower-cased), replacing its kind's numbers where given. */
  owners: Record<string, VisibilityQuota>;
}

/** The public hub's documented numbers: 100 GB private for a free user, 1 TB for an organization (Team seat). */
export const PUBLIC_HUB_QUOTAS: StorageQuotaPolicy = {
  user: { private: 100 * GB },
  organization: { private: 1000 * GB },
  owners: {},
};

export class StorageQuotaConfigError extends Error {
  constructor(message: string) {
    super(`STORAGE_QUOTAS: ${message}`);
    this.name = "StorageQuotaConfigError";
  }
}

/**
 * STORAGE_QUOTAS: unset or "off": none; "default": the public hub's; JSON in bytes, e.g.
 * `{"user":{"private":100000000000},"organization":{"private":1e12,"public":5e12},"owners":{"acme":{"private":2e12}}}`.
 */
export function parseStorageQuotas(raw: string | undefined): StorageQuotaPolicy | undefined {
  const text = raw?.trim() ?? "";
  if (text === "" || text === "off") return undefined;
  if (text === "default") return PUBLIC_HUB_QUOTAS;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StorageQuotaConfigError('must be "off", "default" or a JSON object (it is not valid JSON).');
  }
  if (!isRecord(value)) throw new StorageQuotaConfigError("must be a JSON object.");
  const owners: Record<string, VisibilityQuota> = {};
  if (value.owners !== undefined) {
    if (!isRecord(value.owners)) throw new StorageQuotaConfigError("owners must be an object.");
    for (const [name, quota] of Object.entries(value.owners))
      owners[name.toLowerCase()] = quotaOf(quota, `owners.${name}`);
  }
  for (const key of Object.keys(value)) {
    if (!["user", "organization", "owners"].includes(key)) {
      throw new StorageQuotaConfigError(`unknown key "${key}" (known: user, organization, owners).`);
    }
  }
  return {
    user: quotaOf(value.user, "user"),
    organization: quotaOf(value.organization, "organization"),
    owners,
  };
}

function quotaOf(value: unknown, where: string): VisibilityQuota {
  if (value === undefined) return {};
  if (!isRecord(value))
    throw new StorageQuotaConfigError(`${where} must be an object with private and/or public.`);
  const quota: VisibilityQuota = {};
  for (const [key, bytes] of Object.entries(value)) {
    if (key !== "private" && key !== "public")
      throw new StorageQuotaConfigError(`${where}.${key}: use private or public.`);
    if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) {
      throw new StorageQuotaConfigError(
        `${where}.${key} must be a whole number of bytes, got ${JSON.stringify(bytes)}.`,
      );
    }
    quota[key] = bytes;
  }
  return quota;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export class StorageQuotaExceededError extends HubError {
  constructor(owner: string, visibility: "private" | "public", used: number, quota: number, adding: number) {
    super(
      413,
      "storage_quota_exceeded",
      `Storage quota exceeded: ${owner}'s ${visibility} repositories hold ${gb(used)} of their ${gb(quota)} ` +
        `${visibility} storage quota, and this upload adds ${gb(adding)}. Nothing was stored. Delete files or ` +
        "repositories, or ask a site administrator for a larger quota (STORAGE_QUOTAS).",
    );
  }
}

const gb = (bytes: number) => `${(bytes / GB).toFixed(bytes < GB ? 3 : 2)} GB`;

/** What an upload path needs: a check before it stores bytes. */
export interface StorageQuotaCheck {
  /**
   * Throws StorageQuotaExceededError when storing `incoming` (content and sizes) in `repo` would take its owner
   * past the quota of its visibility. Content the owner's repositories of that visibility reference already
   * is not counted again.
   */
  assertRoom(
    repo: { owner: string; private: boolean },
    incoming: readonly { sha256: string; size: number }[],
  ): Promise<void>;
}

/**
 * What the Xet write path needs (lfs-xet/cas-routes.ts): a xorb is checked before its bytes are read, a shard
 * before its files are registered; both then count as pending until a commit references the files.
 */
export interface XetQuotaCheck {
  /** Throws StorageQuotaExceededError when `bytes` more, uploaded to this repository, would pass the quota. */
  assertXorbRoom(repoKey: number, bytes: number): Promise<void>;
  /** Counts a newly stored xorb as pending for this repository. */
  xorbStored(repoKey: number, xorbHash: string, size: number): Promise<void>;
  /** Throws when registering these files would pass the quota (their xorbs are not counted twice). */
  assertShardRoom(
    repoKey: number,
    files: readonly XetFileUpload[],
    xorbHashes: readonly string[],
  ): Promise<void>;
  /** The shard's xorbs are now its files: the files count as pending instead, until a commit holds them. */
  shardRegistered(
    repoKey: number,
    files: readonly XetFileUpload[],
    xorbHashes: readonly string[],
  ): Promise<void>;
}

export interface XetFileUpload {
  /** The Xet file hash. */
  hash: string;
  sha256: string;
  size: number;
}

/** How long uploaded bytes count as pending: a Xet write token's life (no upload with it after that). */
const PENDING_MS = XET_TOKEN_SECONDS * 1000;

export class QuotaOwnerNotFoundError extends NotFoundError {
  constructor(owner: string) {
    super(`No user or organization is named "${owner}".`);
  }
}

export function createStorageQuotas(
  store: Store,
  policy: StorageQuotaPolicy | undefined,
  now: () => number = Date.now,
) {
  async function quotaFor(owner: string, visibility: "private" | "public"): Promise<number | undefined> {
    if (!policy) return undefined;
    const own = policy.owners[owner.toLowerCase()]?.[visibility];
    if (own !== undefined) return own;
    const kind = (await store.accounts.namespace(owner))?.kind;
    return (kind === "org" ? policy.organization : policy.user)[visibility];
  }
  const pendingSince = () => new Date(now() - PENDING_MS).toISOString();

  /** What the owner holds in repositories of that visibility plus what is pending there (except `except`). */
  async function usedWithPending(
    owner: string,
    visibility: "private" | "public",
    except?: { repoKey: number; items: readonly string[] },
  ): Promise<number> {
    const held = (await store.storageUsage.usage(owner))[visibility];
    const pending = await store.storageUsage.pending(owner, visibility === "private", pendingSince(), except);
    return held + pending;
  }

  /** Each visibility's bytes held (`held`), pending and quota, as GET /api/quotas/{owner} shows them. */
  async function visibilityUsage(owner: string, held: { private: number; public: number }) {
    const since = pendingSince();
    const entry = async (visibility: "private" | "public") => ({
      used: held[visibility],
      pending: await store.storageUsage.pending(owner, visibility === "private", since),
      quota: (await quotaFor(owner, visibility)) ?? null,
    });
    return { private: await entry("private"), public: await entry("public") };
  }

  /** The repository behind a Xet token and its quota; undefined when no quota applies. */
  async function xetTarget(repoKey: number) {
    if (!policy) return undefined;
    const repo = await store.repos.byKey(repoKey);
    if (!repo) return undefined;
    const visibility: "private" | "public" = repo.private ? "private" : "public";
    const quota = await quotaFor(repo.owner, visibility);
    return quota === undefined ? undefined : { repo, visibility, quota };
  }

  /** The files of a shard the owner's repositories of that visibility do not hold yet, each content once. */
  async function newFiles(
    repo: { owner: string; private: boolean },
    files: readonly XetFileUpload[],
  ): Promise<XetFileUpload[]> {
    const held = await store.storageUsage.held(
      repo.owner,
      repo.private,
      files.map((file) => file.sha256),
    );
    const distinct = new Map<string, XetFileUpload>();
    for (const file of files) if (!held.has(file.sha256)) distinct.set(file.sha256, file);
    return [...distinct.values()];
  }

  return {
    async assertRoom(repo, incoming) {
      if (!policy || incoming.length === 0) return;
      const visibility = repo.private ? "private" : "public";
      const quota = await quotaFor(repo.owner, visibility);
      if (quota === undefined) return;
      const held = await store.storageUsage.held(
        repo.owner,
        repo.private,
        incoming.map((item) => item.sha256),
      );
      const distinct = new Map<string, number>();
      for (const item of incoming) if (!held.has(item.sha256)) distinct.set(item.sha256, item.size);
      const adding = [...distinct.values()].reduce((sum, size) => sum + size, 0);
      if (adding === 0) return;
      const used = await usedWithPending(repo.owner, visibility);
      if (used + adding > quota)
        throw new StorageQuotaExceededError(repo.owner, visibility, used, quota, adding);
    },

    async assertXorbRoom(repoKey, bytes) {
      const target = await xetTarget(repoKey);
      if (!target) return;
      const used = await usedWithPending(target.repo.owner, target.visibility);
      if (used + bytes > target.quota)
        throw new StorageQuotaExceededError(target.repo.owner, target.visibility, used, target.quota, bytes);
    },

    async xorbStored(repoKey, xorbHash, size) {
      if (!policy) return;
      await store.storageUsage.prunePending(pendingSince());
      await store.storageUsage.addPending(repoKey, [{ item: xorbHash, size }], new Date(now()).toISOString());
    },

    async assertShardRoom(repoKey, files, xorbHashes) {
      const target = await xetTarget(repoKey);
      if (!target) return;
      const adding = (await newFiles(target.repo, files)).reduce((sum, file) => sum + file.size, 0);
      if (adding === 0) return;
      // This shard's xorbs hold these files' bytes, and a shard sent again names files already pending.
      const items = [...xorbHashes, ...files.map((file) => file.hash)];
      const used = await usedWithPending(target.repo.owner, target.visibility, { repoKey, items });
      if (used + adding > target.quota)
        throw new StorageQuotaExceededError(target.repo.owner, target.visibility, used, target.quota, adding);
    },

    async shardRegistered(repoKey, files, xorbHashes) {
      if (!policy) return;
      const repo = await store.repos.byKey(repoKey);
      if (!repo) return;
      await store.storageUsage.removePending(repoKey, xorbHashes);
      const pending = (await newFiles(repo, files)).map((file) => ({
        item: file.hash,
        sha256: file.sha256,
        size: file.size,
      }));
      await store.storageUsage.addPending(repoKey, pending, new Date(now()).toISOString());
    },

    /**
     * An owner's usage and quotas (GET /api/quotas/{owner}): readable by the owner, by an organization's
     * members, and by site administrators; to anyone else the owner's usage does not exist.
     */
    async usage(actor: Actor, owner: string): Promise<StorageUsageView> {
      if (actor.kind === "anonymous") throw new AuthenticationRequiredError();
      const namespace = await store.accounts.namespace(owner);
      // A fine-grained token reads only its own user's usage: its scopes name repositories, not storage.
      const fineGrained =
        actor.kind === "user" &&
        actor.credential.kind === "token" &&
        actor.credential.token.role === "fineGrained" &&
        actor.user.name.toLowerCase() !== owner.toLowerCase();
      const allowed =
        actor.kind === "operator" ||
        (actor.kind === "user" &&
          (actor.user.isAdmin || (roleIn(actor, owner) !== undefined && !fineGrained)));
      if (!namespace) throw new QuotaOwnerNotFoundError(owner);
      if (!allowed) {
        throw new PermissionDeniedError(
          `Only ${owner} itself, its organization's members and site administrators may see its storage usage.`,
        );
      }
      return {
        owner: namespace.name,
        type: namespace.kind === "org" ? ("org" as const) : ("user" as const),
        ...(await visibilityUsage(owner, await store.storageUsage.usage(owner))),
      };
    },

    /**
     * The owners that use the most storage, most first, each as `usage` shows it (GET /api/admin/storage; the
     * route lets site administrators only). `type` is null for an owner with no account (mirrored
     * repositories keep their upstream owner).
     */
    async topOwners(limit: number): Promise<StorageUsageView[]> {
      const views: StorageUsageView[] = [];
      for (const held of await store.storageUsage.topOwners(limit)) {
        const namespace = await store.accounts.namespace(held.owner);
        views.push({
          owner: namespace?.name ?? held.owner,
          type: namespace ? (namespace.kind === "org" ? "org" : "user") : null,
          ...(await visibilityUsage(held.owner, held)),
        });
      }
      return views;
    },
  } satisfies StorageQuotaCheck & XetQuotaCheck & Record<string, unknown>;
}

export type StorageQuotas = ReturnType<typeof createStorageQuotas>;
