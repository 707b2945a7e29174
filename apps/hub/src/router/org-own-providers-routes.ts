import { type Context, Hono } from "hono";
import { AuthenticationRequiredError, PermissionDeniedError } from "../auth/auth-errors.js";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import type { OrgOwnProvidersService } from "./org-own-providers-service.js";
import {
  modelInput,
  modelQuery,
  priceInput,
  priceQuery,
  orgProviderInput as providerInput,
} from "./own-provider-inputs.js";

/**
 * `/api/organizations/{org}/providers`: an organization's own OpenAI-compatible servers, which the router
 * offers to its members only. Reading: the organization's admins, and its members whose credential may run
 * inference billed to it (who could call the servers anyway); changing (prices included) and checking health
 * now: its admins (and site administrators). Authorized before anything is read, so a caller who may not see
 * them learns nothing, not even whether a name exists. Keys are never answered: only masked.
 */
export function orgOwnProvidersRoutes(deps: {
  orgProviders: OrgOwnProvidersService;
  authorizer: Authorizer;
  maxBodyBytes: number;
  /**
   * Checks the organization's providers' health now (given as the request names it), and no one else's: a
   * user who makes an organization must not have the hub call every server of the site and of the others.
   */
  checkHealth(org: string): Promise<void>;
}) {
  const { orgProviders, authorizer } = deps;
  const json = { maxBytes: deps.maxBodyBytes };
  const app = new Hono<HubEnv>();

  async function mayRead(c: Context<HubEnv>): Promise<void> {
    const actor = c.get("actor");
    const org = c.req.param("org")!;
    if (await authorizer.can(actor, "manage", { kind: "org", name: org })) return;
    if (await authorizer.can(actor, "inference", { kind: "namespace", name: org })) return;
    if (actor.kind === "anonymous") throw new AuthenticationRequiredError();
    throw new PermissionDeniedError(
      `Only members of ${org.slice(0, 60)} whose credential may run inference see its inference providers.`,
    );
  }
  const mayManage = (c: Context<HubEnv>) =>
    authorizer.authorize(c.get("actor"), "manage", { kind: "org", name: c.req.param("org")! });
  // On the list and everything under it (a request both patterns match is checked once).
  const checked = new WeakSet<Request>();
  const guard = async (c: Context<HubEnv>, next: () => Promise<void>) => {
    if (!checked.has(c.req.raw)) {
      checked.add(c.req.raw);
      c.header("Cache-Control", "no-store");
      await (c.req.method === "GET" || c.req.method === "HEAD" ? mayRead(c) : mayManage(c));
    }
    await next();
  };
  app.use("/:org/providers", guard);
  app.use("/:org/providers/*", guard);

  const by = (c: Context<HubEnv>) => {
    const actor = c.get("actor");
    return actor.kind === "user" ? actor.user.name : "admin-token";
  };

  app.get("/:org/providers", async (c) => c.json(await orgProviders.list(c.req.param("org"))));
  app.post("/:org/providers/check", async (c) => {
    await deps.checkHealth(c.req.param("org"));
    return c.json(await orgProviders.list(c.req.param("org")));
  });
  app.get("/:org/providers/:name", async (c) =>
    c.json(await orgProviders.get(c.req.param("org"), c.req.param("name"))),
  );
  app.put("/:org/providers/:name", validate("json", providerInput, json), async (c) => {
    const { provider, created } = await orgProviders.put(
      c.req.param("org"),
      c.req.param("name"),
      c.req.valid("json"),
      by(c),
    );
    return c.json(provider, created ? 201 : 200);
  });
  app.delete("/:org/providers/:name", async (c) => {
    await orgProviders.delete(c.req.param("org"), c.req.param("name"));
    return c.json({ name: c.req.param("name"), deleted: true });
  });
  app.put("/:org/providers/:name/models", validate("json", modelInput, json), async (c) =>
    c.json(
      await orgProviders.putModel(
        c.req.param("org"),
        c.req.param("name"),
        c.req.valid("json"),
        c.get("actor"),
      ),
    ),
  );
  app.delete("/:org/providers/:name/models", validate("query", modelQuery), async (c) =>
    c.json(
      await orgProviders.deleteModel(
        c.req.param("org"),
        c.req.param("name"),
        c.req.valid("query"),
        c.get("actor"),
      ),
    ),
  );
  app.put("/:org/providers/:name/prices", validate("json", priceInput, json), async (c) =>
    c.json(
      await orgProviders.putPrice(
        c.req.param("org"),
        c.req.param("name"),
        c.req.valid("json"),
        c.get("actor"),
        by(c),
      ),
    ),
  );
  app.delete("/:org/providers/:name/prices", validate("query", priceQuery), async (c) =>
    c.json(
      await orgProviders.deletePrice(
        c.req.param("org"),
        c.req.param("name"),
        c.req.valid("query").model,
        c.get("actor"),
      ),
    ),
  );
  return app;
}
