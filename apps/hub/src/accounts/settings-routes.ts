import { Hono, type MiddlewareHandler } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { usageSince } from "../router/usage-query.js";
import type { UsageService } from "../router/usage-service.js";
import { passwordChange, profileChange, usageQuery } from "./account-schemas.js";
import type { AccountsService } from "./accounts-service.js";
import { avatarPath } from "./public-shapes.js";
import { accountOwner, signedInUser } from "./signed-in.js";
import type { User } from "./types.js";

export interface SettingsRoutesDeps {
  accounts: AccountsService;
  usage: UsageService;
  maxBodyBytes: number;
  /** Called after a change that cached actors carry (profile, password). */
  onChanged: () => void;
}

const profile = (u: User) => ({
  name: u.name,
  fullname: u.fullname,
  email: u.email,
  avatarUrl: avatarPath(u.name),
  isAdmin: u.isAdmin,
  createdAt: u.createdAt,
});

/** The signed-in user, once allowed to change their own account: checked before the body is read. */
const owner: MiddlewareHandler<HubEnv> = async (c, next) => {
  await accountOwner(c);
  await next();
};

/**
 * The signed-in user's own account under `/api/settings`: `GET`/`PATCH /profile` {fullname, email},
 * `PUT /password` {currentPassword, newPassword} (signs the user out everywhere), `GET /usage?since=` (the
 * router calls they made). Reading takes any credential of theirs; changes `authorize(actor, "manage", user)`.
 */
export function settingsAccountRoutes(deps: SettingsRoutesDeps) {
  const { accounts } = deps;
  const app = new Hono<HubEnv>();
  const json = { maxBytes: deps.maxBodyBytes };

  app.get("/profile", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(profile(signedInUser(c).user));
  });

  app.patch("/profile", owner, validate("json", profileChange, json), async (c) => {
    const updated = await accounts.updateProfile(signedInUser(c).user, c.req.valid("json"));
    deps.onChanged();
    return c.json(profile(updated));
  });

  app.put("/password", owner, validate("json", passwordChange, json), async (c) => {
    const input = c.req.valid("json");
    await accounts.changePassword(signedInUser(c).user, input.currentPassword, input.newPassword);
    deps.onChanged();
    return c.json({ changed: true, signedOut: true });
  });

  app.get("/usage", validate("query", usageQuery), async (c) => {
    const current = signedInUser(c).user;
    const since = usageSince(c.req.valid("query").since);
    return c.json({ user: current.name, since, usage: await deps.usage.ofUser(current.id, since) });
  });

  return app;
}
