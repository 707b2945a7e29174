import { ORG_ADMIN_ONLY, type Row, SITE_ADMIN_ONLY } from "./callers.js";

/**
 * The audit log (audit/audit-routes.ts): an organization's log and its export are its admins' (and site
 * admins'); the site's log and its export are site admins' only.
 */
export const AUDIT_ROWS: Row[] = [
  {
    route: "GET /api/organizations/:org/audit-log",
    name: "read acme's audit log",
    method: "GET",
    path: "/api/organizations/acme/audit-log",
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "GET /api/organizations/:org/audit-log/export",
    name: "export acme's audit log as JSON Lines",
    method: "GET",
    path: "/api/organizations/acme/audit-log/export",
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "GET /api/admin/audit-log",
    name: "read the site's audit log",
    method: "GET",
    path: "/api/admin/audit-log",
    expected: SITE_ADMIN_ONLY,
  },
  {
    route: "GET /api/admin/audit-log/export",
    name: "export the site's audit log as JSON Lines",
    method: "GET",
    path: "/api/admin/audit-log/export",
    expected: SITE_ADMIN_ONLY,
  },
];
