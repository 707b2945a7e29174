import { Hono } from "hono";
import { z } from "zod";
import type { AuditEntryInput } from "../audit/audit-log.js";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import type { MirrorAdmin } from "./mirror-admin.js";
import type { EvictionReport } from "./mirror-cache.js";

const evictRequest = z.strictObject({
  /** `model/owner/name`, `datasets/owner/name`, `spaces/owner/name` (or a bare `owner/name`: a model). */
  repo: z.string().min(1).max(300).optional(),
  all: z.boolean().optional(),
});

/**
 * The audit entry of an eviction (API or CLI): the repository's, or the hub's cache as a whole (`all`, or
 * down to the cap).
 */
export function evictionEntry(report: EvictionReport & { evicted: string }): AuditEntryInput {
  const whole = report.evicted === "all" || report.evicted === "least recently read";
  return {
    action: "mirror.evict",
    namespace: null,
    targetType: whole ? "site" : "repo",
    target: whole ? null : report.evicted,
    details: {
      evicted: report.evicted,
      evictedFiles: report.evictedFiles,
      evictedBytes: report.evictedBytes,
    },
  };
}

/**
 * `/api/admin/mirror`: the mirror's cache, counters and policy (GET), and eviction (POST /evict). The
 * operator's ADMIN_TOKEN or a site administrator, as every /api/admin route: `authorize(actor, "manage",
 * site)`, before anything is read. An eviction is audited (`mirror.evict`) once done.
 */
export function mirrorAdminRoutes(deps: {
  admin: MirrorAdmin;
  authorizer: Authorizer;
  maxBodyBytes: number;
  recordDone: (entry: AuditEntryInput) => Promise<void>;
}) {
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    await next();
  });
  app.get("/", async (c) => c.json(await deps.admin.status()));
  app.post("/evict", validate("json", evictRequest, { maxBytes: deps.maxBodyBytes }), async (c) => {
    const report = await deps.admin.evict(c.req.valid("json"));
    await deps.recordDone(evictionEntry(report));
    return c.json(report);
  });
  return app;
}
