import { Hono } from "hono";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { modelInput, modelQuery, siteProviderInput as providerInput } from "./own-provider-inputs.js";
import type { OwnProvidersService } from "./own-providers-service.js";

/**
 * `/api/admin/own-providers`: the administrator's own OpenAI-compatible servers behind the router (list with
 * each one's health, add or replace, remove, map hub models, check health now). The operator's ADMIN_TOKEN
 * or a site administrator, checked before anything is read. Keys are never answered: only masked.
 */
export function ownProvidersRoutes(deps: {
  ownProviders: OwnProvidersService;
  authorizer: Authorizer;
  maxBodyBytes: number;
  /** Checks every provider's health now (the registry's periodic check, run at once). */
  checkHealth(): Promise<void>;
}) {
  const { ownProviders } = deps;
  const json = { maxBytes: deps.maxBodyBytes };
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    c.header("Cache-Control", "no-store");
    await next();
  });
  app.get("/", async (c) => c.json(await ownProviders.list()));
  app.post("/check", async (c) => {
    await deps.checkHealth();
    return c.json(await ownProviders.list());
  });
  app.get("/:name", async (c) => c.json(await ownProviders.get(c.req.param("name"))));
  app.put("/:name", validate("json", providerInput, json), async (c) => {
    const { provider, created } = await ownProviders.put(c.req.param("name"), c.req.valid("json"));
    return c.json(provider, created ? 201 : 200);
  });
  app.delete("/:name", async (c) => {
    await ownProviders.delete(c.req.param("name"));
    return c.json({ name: c.req.param("name"), deleted: true });
  });
  app.put("/:name/models", validate("json", modelInput, json), async (c) =>
    c.json(await ownProviders.putModel(c.req.param("name"), c.req.valid("json"))),
  );
  app.delete("/:name/models", validate("query", modelQuery), async (c) => {
    const { model, kind } = c.req.valid("query");
    return c.json(await ownProviders.deleteModel(c.req.param("name"), model, kind));
  });
  return app;
}
