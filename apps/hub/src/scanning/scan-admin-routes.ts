import { Hono } from "hono";
import type { AuditEntryInput } from "../audit/audit-log.js";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import type { ScanService } from "./scan-service.js";

/**
 * `/api/admin/scanning`: the queue's counts, the policy and the rules stamp (GET), and a re-scan of every
 * content (POST /rescan: every report is queued again, and every file of every ref head that has no row is
 * queued: `{requeued, queued}`). The operator's ADMIN_TOKEN or a site administrator,
 * as every /api/admin route: `authorize(actor, "manage", site)`, before anything is read. A re-scan is
 * audited (`scanning.rescan`, with its counts) once done.
 */
export function scanAdminRoutes(deps: {
  scanning: ScanService;
  authorizer: Authorizer;
  recordDone: (entry: AuditEntryInput) => Promise<void>;
}) {
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    await next();
  });
  app.get("/", async (c) =>
    c.json({
      policy: deps.scanning.policy,
      rulesVersion: deps.scanning.rulesVersion,
      queue: await deps.scanning.status(),
    }),
  );
  app.post("/rescan", async (c) => {
    const done = await deps.scanning.rescanAll();
    await deps.recordDone({
      action: "scanning.rescan",
      namespace: null,
      targetType: "site",
      target: null,
      details: done,
    });
    return c.json(done);
  });
  return app;
}
