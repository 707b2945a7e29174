import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { hubGet } from "../../lib/api/hub-fetch.js";

export { AUDIT_ACTIONS } from "@modelhub/hub/api";

/** One entry (hub: audit/audit-table.ts AuditEntry). */
export interface AuditEntry {
  id: number;
  createdAt: string;
  namespace: string | null;
  action: string;
  actorKind: string;
  actorName: string | null;
  targetType: string;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditFilters {
  action?: string;
  actor?: string;
  target?: string;
  since?: string;
  until?: string;
}

/** `/api/organizations/{org}/audit-log` for an organization's log, `/api/admin/audit-log` for the site's. */
export function auditBase(org: string | undefined): string {
  return org === undefined
    ? "/api/admin/audit-log"
    : `/api/organizations/${encodeURIComponent(org)}/audit-log`;
}

export function auditParams(filters: AuditFilters, before?: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (before !== undefined) params.set("before", String(before));
  return params;
}

export const AUDIT_PAGE = 50;

export const auditQuery = (org: string | undefined, filters: AuditFilters, before: number | undefined) =>
  queryOptions({
    queryKey: ["audit-log", org ?? "(site)", filters, before ?? null],
    queryFn: async ({ signal }) => {
      const params = auditParams(filters, before);
      params.set("limit", String(AUDIT_PAGE));
      return (await hubGet<{ entries: AuditEntry[]; next?: number }>(`${auditBase(org)}?${params}`, signal))
        .data;
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
