import { Hono, type MiddlewareHandler } from "hono";
import type { AdminOperations } from "../admin-operations.js";
import { bearerToken, secretsEqual } from "../auth/hub-tokens.js";
import { ForbiddenError, InvalidInputError, UnauthorizedError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { modelIdFromParts } from "../model-id.js";
import type { Store } from "../store/store.js";

export interface AdminRoutesDeps {
  store: Store;
  operations: AdminOperations;
  /** Undefined disables the admin API (every call gets 403). */
  adminToken: string | undefined;
  maxBodyBytes: number;
}

function requireAdmin(adminToken: string | undefined): MiddlewareHandler<HubEnv> {
  return async (_c, next) => {
    const credential = bearerToken(_c.req.header("Authorization"));
    if (adminToken === undefined)
      throw new ForbiddenError("The admin API is disabled: start the hub with ADMIN_TOKEN.");
    if (!credential)
      throw new UnauthorizedError('The admin API needs "Authorization: Bearer <ADMIN_TOKEN>".');
    if (!secretsEqual(credential, adminToken)) throw new UnauthorizedError("Invalid admin token.");
    await next();
  };
}

function tokenId(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new InvalidInputError("A token id is a positive integer.");
  return Number(raw);
}

/** Admin writes under `/api/admin`, behind `Authorization: Bearer <ADMIN_TOKEN>`. */
export function adminRoutes({ store, operations, adminToken, maxBodyBytes }: AdminRoutesDeps) {
  const app = new Hono<HubEnv>();
  app.use("*", requireAdmin(adminToken));

  app.post("/models", async (c) => {
    const { model } = operations.putModel(await readJsonBody(c, maxBodyBytes), "create");
    return c.json({ id: model.id, created: true }, 201);
  });

  app.put("/models/:owner/:name", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    const body = (await readJsonBody(c, maxBodyBytes)) as Record<string, unknown>;
    const record =
      typeof body === "object" && body !== null && !Array.isArray(body)
        ? { ...body, id: body.id ?? id }
        : body;
    const { model, created } = operations.putModel(record, "upsert", id);
    return c.json({ id: model.id, created }, created ? 201 : 200);
  });

  app.delete("/models/:owner/:name", (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    operations.deleteModel(id);
    return c.json({ id, deleted: true });
  });

  app.put("/models/:owner/:name/mappings/:provider", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    const mapping = operations.setMapping(id, c.req.param("provider"), await readJsonBody(c, maxBodyBytes));
    return c.json({ [c.req.param("provider")]: mapping });
  });

  app.delete("/models/:owner/:name/mappings/:provider", (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    operations.deleteMapping(id, c.req.param("provider"));
    return c.json({ id, provider: c.req.param("provider"), deleted: true });
  });

  app.post("/tokens", async (c) => c.json(operations.createToken(await readJsonBody(c, maxBodyBytes)), 201));
  app.get("/tokens", (c) => c.json(operations.listTokens()));
  app.delete("/tokens/:id", (c) => c.json(operations.revokeToken(tokenId(c.req.param("id")))));

  app.get("/usage", (c) => {
    const raw = c.req.query("tokenId");
    return c.json(store.usage.summary(raw === undefined ? undefined : tokenId(raw)));
  });

  return app;
}
