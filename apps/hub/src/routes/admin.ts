import { Hono, type MiddlewareHandler } from "hono";
import type { AccountsService } from "../accounts/accounts-service.js";
import type { AdminOperations } from "../admin-operations.js";
import type { Authorizer } from "../auth/authorize.js";
import { InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { modelIdFromParts } from "../model-id.js";
import type { Store } from "../store/store.js";

export interface AdminRoutesDeps {
  store: Store;
  operations: AdminOperations;
  accounts: AccountsService;
  authorizer: Authorizer;
  /** Called after a change that cached credentials must not outlive (token revoked, user disabled). */
  onAccountsChanged: () => void;
  maxBodyBytes: number;
}

/** The operator (ADMIN_TOKEN) or a site administrator: `authorize(actor, "manage", site)`. */
function requireSiteAdmin(authorizer: Authorizer): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    await authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    await next();
  };
}

function tokenId(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new InvalidInputError("A token id is a positive integer.");
  return Number(raw);
}

/** Site administration under `/api/admin`: the operator's ADMIN_TOKEN, or a site admin's session or token. */
export function adminRoutes(deps: AdminRoutesDeps) {
  const { store, operations, accounts, maxBodyBytes } = deps;
  const app = new Hono<HubEnv>();
  app.use("*", requireSiteAdmin(deps.authorizer));

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

  app.post("/tokens", async (c) => {
    const body = await readJsonBody(c, maxBodyBytes);
    const user = (body as { user?: unknown } | null)?.user;
    if (user !== undefined && typeof user !== "string")
      throw new InvalidInputError('"user" must be a user name.');
    return c.json(await accounts.createToken(user, body), 201);
  });
  app.get("/tokens", async (c) => c.json(await accounts.listTokens(c.req.query("user"))));
  app.delete("/tokens/:id", async (c) => {
    const revoked = await accounts.revokeToken(tokenId(c.req.param("id")));
    deps.onAccountsChanged();
    return c.json(revoked);
  });

  app.get("/usage", (c) => {
    const raw = c.req.query("tokenId");
    return c.json(store.usage.summary(raw === undefined ? undefined : tokenId(raw)));
  });

  return app;
}
