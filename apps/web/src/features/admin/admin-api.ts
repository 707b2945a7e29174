import type { AdminOrg, AdminSiteSettings, AdminUser } from "@modelhub/hub/api";
import { queryOptions } from "@tanstack/react-query";
import { hubGet } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";
import { accountSend } from "../account/account-api.js";

export interface UsageRow {
  user?: string | null;
  org?: string | null;
  requests: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  totalMs: number;
}

const adminQuery = <T>(key: string, path: string) =>
  queryOptions({
    queryKey: ["admin", key],
    queryFn: async ({ signal }) => (await hubGet<T>(path, signal)).data,
  });

export const siteSettingsQuery = adminQuery<AdminSiteSettings>("settings", "/api/admin/settings");
export const adminUsersQuery = adminQuery<AdminUser[]>("users", "/api/admin/users");
export const adminOrgsQuery = adminQuery<AdminOrg[]>("orgs", "/api/admin/orgs");
/** `GET /api/admin/mirror` (hub: src/mirror/mirror-admin.ts MirrorStatus). */
export interface MirrorStatus {
  upstream: string | null;
  mode: "pull-through" | "offline" | null;
  cache: {
    storedBytes: number;
    storedFiles: number;
    declaredFiles: number;
    maxBytes: number | null;
    mirroredRepositories: number;
  };
  stats: {
    hits: number;
    misses: number;
    transfers: { stored: number; failed: number };
    upstreamBytes: number;
    upstreamErrors: { unreachable: number; refused: number; integrity: number; cut: number };
    evictions: number;
    evictedBytes: number;
  };
  policy: {
    allow: string[];
    deny: string[];
    licenses: string[];
    localNamespaces: string[];
    maxFileSize: number | null;
    maxCacheSize: number | null;
  };
}
export const mirrorStatusQuery = adminQuery<MirrorStatus>("mirror", "/api/admin/mirror");
export const adminUsageQuery = (by: "user" | "org") =>
  adminQuery<{ by: string; since: string; usage: UsageRow[] }>(`usage-${by}`, `/api/admin/usage?by=${by}`);

/** `/api/site`: the name and notice every page shows (anyone may read them). */
export const siteQuery = queryOptions({
  queryKey: ["site"],
  queryFn: async ({ signal }) =>
    (await hubGet<{ siteName: string; notice: string; cardImageOrigins?: string[] }>("/api/site", signal))
      .data,
  staleTime: 5 * 60_000,
});

/** Creates a user or an organization through the admin API; the confirmation names what was created. */
export async function adminCreate(path: string, body: Record<string, unknown>): Promise<string> {
  const created = await adminSend<{ name: string }>("POST", path, body, ["admin"]);
  return `Created ${created.name}.`;
}

/** A change through the admin API, then the lists it touches are read again. */
export async function adminSend<T>(
  method: "POST" | "PUT" | "PATCH",
  path: string,
  body: unknown,
  refresh: readonly string[],
): Promise<T> {
  const answer = await accountSend<T>(method, path, body);
  await Promise.all(refresh.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
  return answer;
}
