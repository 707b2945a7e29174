import { type Row, SITE_ADMIN_ONLY } from "./callers.js";

/**
 * Storage usage (limits/quota-routes.ts): an organization's is for its members (a fine-grained token only for
 * its own user) and site administrators; anyone else is refused. The list of the owners using the most storage
 * names every owner (private storage included): site administrators only.
 */
export const QUOTA_ROWS: Row[] = [
  {
    route: "GET /api/quotas/:owner",
    name: "read acme's storage usage and quotas",
    method: "GET",
    path: "/api/quotas/acme",
    expected: { ...SITE_ADMIN_ONLY, reader: 200, writer: 200, orgAdmin: 200, readTokenOnWrite: 200 },
  },
  {
    route: "GET /api/admin/storage",
    name: "list the owners using the most storage",
    method: "GET",
    path: "/api/admin/storage?limit=10",
    expected: SITE_ADMIN_ONLY,
  },
];
