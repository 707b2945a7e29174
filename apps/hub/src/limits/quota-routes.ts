import { Hono } from "hono";
import { z } from "zod";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { queryParam, validate } from "../http/validate.js";
import type { StorageQuotas } from "./storage-quotas.js";

/**
 * `GET /api/quotas/{owner}`: a user's or organization's storage, private and public apart: bytes its
 * repositories reference (`used`), bytes uploaded through Xet that no commit references yet (`pending`), and
 * the quota (`null`: none). For the owner, the organization's members and site administrators.
 */
export function quotaRoutes(deps: { quotas: Pick<StorageQuotas, "usage"> }) {
  const app = new Hono<HubEnv>();
  app.get("/:owner", async (c) => c.json(await deps.quotas.usage(c.get("actor"), c.req.param("owner"))));
  return app;
}

/** `?limit=`: how many owners (1-200, default 50). */
const topOwnersQuery = z.object({
  limit: queryParam(z.coerce.number().int().min(1).max(200).optional()),
});

/**
 * `GET /api/admin/storage`: the owners using the most storage, most first, each in GET /api/quotas/{owner}'s
 * shape. Site administrators (and the operator) only: it names every owner, private storage included.
 */
export function adminStorageRoutes(deps: {
  quotas: Pick<StorageQuotas, "topOwners">;
  authorizer: Authorizer;
}) {
  const app = new Hono<HubEnv>();
  // Authorized before the query is read: to anyone else the route says nothing, not even about its input.
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    await next();
  });
  app.get("/", validate("query", topOwnersQuery), async (c) => {
    const { limit } = c.req.valid("query");
    return c.json({ owners: await deps.quotas.topOwners(limit ?? 50) });
  });
  return app;
}
