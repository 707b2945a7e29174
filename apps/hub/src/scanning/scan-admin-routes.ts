import { Hono } from "hono";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import type { ScanService } from "./scan-service.js";

/**
 * `/api/admin/scanning`: the queue's counts, the policy and the rules stamp (GET), and a re-scan of every
 * content (POST /rescan: every report is queued again, and every file of every ref head that has no row is
 * queued: `{requeued, queued}`). The operator's ADMIN_TOKEN or a site administrator,
 * as every /api/admin route: `authorize(actor, "manage", site)`, before anything is read.
 */
export function scanAdminRoutes(deps: { scanning: ScanService; authorizer: Authorizer }) {
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
  app.post("/rescan", async (c) => c.json(await deps.scanning.rescanAll()));
  return app;
}
