import type { StorageUsageView, VisibilityUsage } from "@modelhub/hub/api";
import { queryOptions } from "@tanstack/react-query";
import { hubGet } from "../../lib/api/hub-fetch.js";

export type { StorageUsageView, VisibilityUsage };

/** `GET /api/quotas/{owner}`: for the owner, its organization's members and site administrators. */
export const storageUsageQuery = (owner: string) =>
  queryOptions({
    queryKey: ["storage", owner.toLowerCase()],
    queryFn: async ({ signal }) =>
      (await hubGet<StorageUsageView>(`/api/quotas/${encodeURIComponent(owner)}`, signal)).data,
  });

/** How many owners the admin page lists. */
export const TOP_OWNERS = 50;

/** `GET /api/admin/storage`: the owners using the most storage, most first (site administrators only). */
export const topStorageOwnersQuery = queryOptions({
  queryKey: ["admin", "storage", TOP_OWNERS],
  queryFn: async ({ signal }) =>
    (await hubGet<{ owners: StorageUsageView[] }>(`/api/admin/storage?limit=${TOP_OWNERS}`, signal)).data
      .owners,
});

/** How full a visibility's storage is, 0..1 and more (uploads still pending count); undefined: no quota. */
export function fillOf(usage: VisibilityUsage): number | undefined {
  if (usage.quota === null) return undefined;
  if (usage.quota === 0) return usage.used + usage.pending > 0 ? 1 : 0;
  return (usage.used + usage.pending) / usage.quota;
}
