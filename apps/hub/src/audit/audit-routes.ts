import { Hono } from "hono";
import { stream } from "hono/streaming";
import type { HubEnv } from "../http/hub-env.js";
import type { AuditFilters, AuditService } from "./audit-service.js";

const FILTERS = ["action", "actor", "target", "since", "until", "before", "limit"] as const;

function filtersOf(query: Record<string, string>): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTERS) if (query[name] !== undefined) filters[name] = query[name];
  return filters;
}

/**
 * The audit log: `GET /api/organizations/{org}/audit-log` for the organization's admins and
 * `GET /api/admin/audit-log` for site admins, filtered by `action`, `actor`, `target`, `since`, `until`,
 * paged newest first with `limit` and `before` (the `next` of the previous page); `/export` answers every
 * selected entry as JSON Lines. Mounted at both prefixes: `org` is the path's organization, if any.
 */
export function auditRoutes(deps: { audit: AuditService; scope: "org" | "site" }) {
  const app = new Hono<HubEnv>();
  const base = deps.scope === "org" ? "/:org/audit-log" : "/audit-log";
  const orgOf = (param: string | undefined) => (deps.scope === "org" ? param : undefined);
  app.get(base, async (c) =>
    c.json(await deps.audit.list(c.get("actor"), orgOf(c.req.param("org")), filtersOf(c.req.query()))),
  );
  app.get(`${base}/export`, async (c) => {
    const lines = deps.audit.exportLines(c.get("actor"), orgOf(c.req.param("org")), filtersOf(c.req.query()));
    // The first line (or the refusal) before the headers go out: a 403 stays a 403.
    const first = await lines.next();
    c.header("Content-Type", "application/x-ndjson; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="audit-log.jsonl"');
    return stream(c, async (out) => {
      if (!first.done) await out.write(first.value);
      for await (const line of lines) await out.write(line);
    });
  });
  return app;
}
