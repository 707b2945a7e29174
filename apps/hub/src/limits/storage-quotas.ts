/**
 * Storage quotas per user and per organization, private and public repositories separately (STORAGE_QUOTAS),
 * counted from what the owner's repositories reference, each distinct content once (storage-usage-table.ts).
 * Every upload path asks `assertRoom` before it stores an upload's bytes: LFS batch (limits the objects it
 * hands out upload URLs for), commits with inline files, and git push (git/ calls it with the pushed blobs).
 */
import { HubError } from "../errors.js";
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

export function createStorageQuotas(store: Store, policy: StorageQuotaPolicy | undefined) {
  async function quotaFor(owner: string, visibility: "private" | "public"): Promise<number | undefined> {
    if (!policy) return undefined;
    const own = policy.owners[owner.toLowerCase()]?.[visibility];
    if (own !== undefined) return own;
    const kind = (await store.accounts.namespace(owner))?.kind;
    return (kind === "org" ? policy.organization : policy.user)[visibility];
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
      const used = (await store.storageUsage.usage(repo.owner))[visibility];
      if (used + adding > quota)
        throw new StorageQuotaExceededError(repo.owner, visibility, used, quota, adding);
    },
    /** An owner's usage and quotas (the API: GET /api/quotas/{owner}). */
    async usage(owner: string) {
      const used = await store.storageUsage.usage(owner);
      return {
        private: { used: used.private, quota: (await quotaFor(owner, "private")) ?? null },
        public: { used: used.public, quota: (await quotaFor(owner, "public")) ?? null },
      };
    },
  } satisfies StorageQuotaCheck & Record<string, unknown>;
}

export type StorageQuotas = ReturnType<typeof createStorageQuotas>;
