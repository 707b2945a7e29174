import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
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
