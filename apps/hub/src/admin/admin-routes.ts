import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { inviteRequest, orgRequest, tokenIdParam, usageQuery } from "../accounts/account-schemas.js";
import type { AccountsService } from "../accounts/accounts-service.js";
import type { AdminOrg, AdminSiteSettings } from "../api/types.js";
import type { Authorizer } from "../auth/authorize.js";
import { modelIdFromParts } from "../catalogue/model-id.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { queryParam, validate } from "../http/validate.js";
import { isObject } from "../is-object.js";
import { usageSince } from "../router/usage-query.js";
import type { UsageService } from "../router/usage-service.js";
import type { AdminOperations } from "./admin-operations.js";
import { type SiteSettingsService, siteSettingsChange } from "./site-settings.js";

export interface AdminRoutesDeps {
  operations: AdminOperations;
  accounts: AccountsService;
  usage: UsageService;
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

/** `PATCH /users/{name}`: any of these, nothing else. */
const userChange = z.strictObject({
  disabled: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
  password: z.string().optional(),
});

const newUser = z.object({
  name: z.string(),
  fullname: z.string().nullish(),
  email: z.string().nullish(),
  password: z.string().optional(),
  isAdmin: z.boolean().optional(),
});

/** `?by=user|org` (totals per account), or `?tokenId=` (one token's totals), with `?since=`. */
const usageReportQuery = usageQuery.extend({
  by: queryParam(z.enum(["user", "org"]).optional()),
  tokenId: queryParam(tokenIdParam.shape.id.optional()),
});

/** Site administration under `/api/admin`: the operator's ADMIN_TOKEN, or a site admin's session or token. */
export function adminRoutes(deps: AdminRoutesDeps) {
  const { operations, accounts, maxBodyBytes } = deps;
  const json = { maxBytes: maxBodyBytes };
  const app = new Hono<HubEnv>();
  app.use("*", requireSiteAdmin(deps.authorizer));

  app.post("/models", async (c) => {
    const { model } = await operations.putModel(await readJsonBody(c, maxBodyBytes), "create");
    return c.json({ id: model.id, created: true }, 201);
  });

  app.put("/models/:owner/:name", async (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    // The record may leave out its id: the URL's. Anything else is checked by the catalogue service.
    const body = await readJsonBody(c, maxBodyBytes);
    const record = isObject(body) ? { ...body, id: body.id ?? id } : body;
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

  // The token request itself is checked by the accounts service (the settings API and CLI make tokens alike).
  app.post("/tokens", validate("json", z.looseObject({ user: z.string().optional() }), json), async (c) => {
    const body = c.req.valid("json");
    return c.json(await accounts.createToken(body.user, body), 201);
  });
  app.get("/tokens", async (c) => c.json(await accounts.listTokens(c.req.query("user"))));
  app.delete("/tokens/:id", validate("param", tokenIdParam), async (c) => {
    const revoked = await accounts.revokeToken(c.req.valid("param").id);
    deps.onAccountsChanged();
    return c.json(revoked);
  });

  // Sign-up invites (SIGNUP_POLICY=invite): a single-use link.
  app.post("/invites", validate("json", inviteRequest, json), async (c) => {
    const actor = c.get("actor");
    const invite = await accounts.createSignupInvite(
      actor.kind === "user" ? actor.user.id : null,
      c.req.valid("json").expiresInDays,
    );
    c.header("Cache-Control", "no-store");
    return c.json({ ...invite, url: `${deps.publicUrl()}${invite.path}` }, 201);
  });

  // Users: list, create, and change (disable, make admin, reset password).
  app.get("/users", async (c) => c.json(await accounts.listUsers()));
  app.post("/users", validate("json", newUser, json), async (c) => {
    const input = c.req.valid("json");
    const user = await accounts.createUser({
      name: input.name,
      fullname: input.fullname,
      email: input.email,
      password: input.password,
      isAdmin: input.isAdmin === true,
    });
    return c.json(user, 201);
  });
  app.patch("/users/:name", validate("json", userChange, json), async (c) => {
    const name = c.req.param("name");
    const input = c.req.valid("json");
    let user = await accounts.user(name);
    if (input.password !== undefined) await accounts.setPassword(name, input.password);
    if (input.disabled !== undefined) user = await accounts.setDisabled(name, input.disabled);
    if (input.isAdmin !== undefined) user = await accounts.setAdmin(name, input.isAdmin);
    deps.onAccountsChanged();
    return c.json(user);
  });

  // Every organization; members are changed through /api/organizations (site admins pass its checks).
  app.get("/orgs", async (c) => {
    const view: AdminOrg[] = await accounts.listOrgs();
    return c.json(view);
  });
  app.post("/orgs", validate("json", orgRequest.extend({ owner: z.string() }), json), async (c) => {
    const input = c.req.valid("json");
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
  app.put("/settings", validate("json", siteSettingsChange, json), async (c) => {
    await deps.site.update(c.req.valid("json"));
    return c.json(await settingsView());
  });

  app.get("/usage", validate("query", usageReportQuery), async (c) => {
    const { by, since, tokenId } = c.req.valid("query");
    if (by !== undefined) return c.json(await deps.usage.byAccount(by, usageSince(since)));
    return c.json(await deps.usage.summary(tokenId));
  });

  return app;
}
