import { Hono, type MiddlewareHandler } from "hono";
import type { AccountsService } from "../accounts/accounts-service.js";
import { createSignupInvite } from "../accounts/invites.js";
import type { AdminOrg, AdminSiteSettings } from "../api/types.js";
import type { Authorizer } from "../auth/authorize.js";
import { modelIdFromParts } from "../catalogue/model-id.js";
import { InvalidInputError } from "../errors.js";
import { readJsonBody, readJsonObject } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { usageByAccount } from "../router/usage-by-account.js";
import { usageSince } from "../router/usage-query.js";
import type { Store } from "../store/store.js";
import type { AdminOperations } from "./admin-operations.js";
import type { SiteSettingsService } from "./site-settings.js";

export interface AdminRoutesDeps {
  store: Store;
  operations: AdminOperations;
  accounts: AccountsService;
  authorizer: Authorizer;
  /** Called after a change that cached credentials must not outlive (token revoked, user disabled). */
  onAccountsChanged: () => void;
  maxBodyBytes: number;
  /** The hub's public URL, for invite links. */
  publicUrl: () => string;
  site: SiteSettingsService;
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
    const { model } = await operations.putModel(await readJsonBody(c, maxBodyBytes), "create");
    return c.json({ id: model.id, created: true }, 201);
  });

  app.put("/models/:owner/:name", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    const body = (await readJsonBody(c, maxBodyBytes)) as Record<string, unknown>;
    const record =
      typeof body === "object" && body !== null && !Array.isArray(body)
        ? { ...body, id: body.id ?? id }
        : body;
    const { model, created } = await operations.putModel(record, "upsert", id);
    return c.json({ id: model.id, created }, created ? 201 : 200);
  });

  app.delete("/models/:owner/:name", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    await operations.deleteModel(id);
    return c.json({ id, deleted: true });
  });

  app.put("/models/:owner/:name/mappings/:provider", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    const mapping = await operations.setMapping(
      id,
      c.req.param("provider"),
      await readJsonBody(c, maxBodyBytes),
    );
    return c.json({ [c.req.param("provider")]: mapping });
  });

  app.delete("/models/:owner/:name/mappings/:provider", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    await operations.deleteMapping(id, c.req.param("provider"));
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

  // Sign-up invites (SIGNUP_POLICY=invite): a single-use link.
  app.post("/invites", async (c) => {
    const input = await readJsonObject(c, maxBodyBytes);
    const actor = c.get("actor");
    const invite = await createSignupInvite(
      store.accounts,
      actor.kind === "user" ? actor.user.id : null,
      input.expiresInDays,
    );
    c.header("Cache-Control", "no-store");
    return c.json({ ...invite, url: `${deps.publicUrl()}${invite.path}` }, 201);
  });

  // Users: list, create, and change (disable, make admin, reset password).
  app.get("/users", async (c) => c.json(await store.accounts.users.list()));
  app.post("/users", async (c) => {
    const input = await readJsonObject(c, maxBodyBytes);
    const user = await accounts.createUser({
      name: input.name,
      fullname: input.fullname,
      email: input.email,
      password: input.password,
      isAdmin: input.isAdmin === true,
    });
    return c.json(user, 201);
  });
  app.patch("/users/:name", async (c) => {
    const name = c.req.param("name");
    const input = await readJsonObject(c, maxBodyBytes);
    for (const key of Object.keys(input)) {
      if (!["disabled", "isAdmin", "password"].includes(key))
        throw new InvalidInputError(
          `Unknown field "${key.slice(0, 40)}": expected disabled, isAdmin, password.`,
        );
    }
    if (input.disabled !== undefined && typeof input.disabled !== "boolean")
      throw new InvalidInputError('"disabled" must be true or false.');
    if (input.isAdmin !== undefined && typeof input.isAdmin !== "boolean")
      throw new InvalidInputError('"isAdmin" must be true or false.');
    let user = await accounts.user(name);
    if (input.password !== undefined) await accounts.setPassword(name, input.password);
    if (typeof input.disabled === "boolean") user = await accounts.setDisabled(name, input.disabled);
    if (typeof input.isAdmin === "boolean") user = await accounts.setAdmin(name, input.isAdmin);
    deps.onAccountsChanged();
    return c.json(user);
  });

  // Every organization; members are changed through /api/organizations (site admins pass its checks).
  app.get("/orgs", async (c) => {
    const orgs = await store.accounts.orgs.list();
    const view: AdminOrg[] = await Promise.all(
      orgs.map(async (org) => ({ ...org, members: (await store.accounts.orgs.members(org.id)).length })),
    );
    return c.json(view);
  });
  app.post("/orgs", async (c) => {
    const input = await readJsonObject(c, maxBodyBytes);
    if (typeof input.owner !== "string") throw new InvalidInputError('"owner" must be a user name.');
    const org = await accounts.createOrg({ name: input.name, fullname: input.fullname, owner: input.owner });
    deps.onAccountsChanged();
    return c.json(org, 201);
  });

  // Site settings: name, notice, and the sign-up policy's override (null follows SIGNUP_POLICY).
  const settingsView = async (): Promise<AdminSiteSettings> => ({
    ...(await deps.site.get()),
    configuredSignupPolicy: deps.site.configuredSignupPolicy,
    effectiveSignupPolicy: await deps.site.signupPolicy(),
  });
  app.get("/settings", async (c) => c.json(await settingsView()));
  app.put("/settings", async (c) => {
    await deps.site.update(await readJsonBody(c, maxBodyBytes));
    return c.json(await settingsView());
  });

  app.get("/usage", async (c) => {
    const by = c.req.query("by");
    if (by !== undefined) {
      if (by !== "user" && by !== "org") throw new InvalidInputError('"by" must be user or org.');
      return c.json(await usageByAccount(store, by, usageSince(c.req.query("since"))));
    }
    const raw = c.req.query("tokenId");
    return c.json(await store.usage.summary(raw === undefined ? undefined : tokenId(raw)));
  });

  return app;
}
