import { Hono } from "hono";
import { z } from "zod";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import type { MirrorAdmin } from "./mirror-admin.js";

const evictRequest = z.strictObject({
  /** `model/owner/name`, `datasets/owner/name`, `spaces/owner/name` (or a bare `owner/name`: a model). */
  repo: z.string().min(1).max(300).optional(),
  all: z.boolean().optional(),
});

/**
 * `/api/admin/mirror`: the mirror's cache, counters and policy (GET), and eviction (POST /evict). The
 * operator's ADMIN_TOKEN or a site administrator, as every /api/admin route: `authorize(actor, "manage",
 * site)`, before anything is read.
 */
export function mirrorAdminRoutes(deps: {
  admin: MirrorAdmin;
  authorizer: Authorizer;
  maxBodyBytes: number;
}) {
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    await next();
  });
  app.get("/", async (c) => c.json(await deps.admin.status()));
  app.post("/evict", validate("json", evictRequest, { maxBytes: deps.maxBodyBytes }), async (c) =>
    c.json(await deps.admin.evict(c.req.valid("json"))),
  );
  return app;
}
