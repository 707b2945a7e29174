import { type Context, Hono } from "hono";
import { PermissionDeniedError } from "../auth/auth-errors.js";
import { readJsonObject } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { usageSince } from "../router/usage-query.js";
import type { Store } from "../store/store.js";
import { accountsService } from "./accounts-service.js";
import { parseEmail, parseFullname } from "./names.js";
import { verifyPassword } from "./password.js";
import { avatarPath } from "./public-shapes.js";
import { accountOwner, signedInUser } from "./signed-in.js";

/**
 * The signed-in user's own account under `/api/settings`: `GET`/`PATCH /profile` {fullname, email},
 * `PUT /password` {currentPassword, newPassword} (signs the user out everywhere), `GET /usage?since=` (the
 * router calls they made). Reading takes any credential of theirs; changes `authorize(actor, "manage", user)`.
 */
export function settingsAccountRoutes(deps: { store: Store; maxBodyBytes: number; onChanged: () => void }) {
  const accounts = deps.store.accounts;
  const service = accountsService(accounts);
  const app = new Hono<HubEnv>();

  const body = (c: Context<HubEnv>) => readJsonObject(c, deps.maxBodyBytes);
  const profile = (u: {
    name: string;
    fullname: string;
    email: string | null;
    isAdmin: boolean;
    createdAt: string;
  }) => ({
    name: u.name,
    fullname: u.fullname,
    email: u.email,
    avatarUrl: avatarPath(u.name),
    isAdmin: u.isAdmin,
    createdAt: u.createdAt,
  });

  app.get("/profile", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(profile(signedInUser(c).user));
  });

  app.patch("/profile", async (c) => {
    const current = await accountOwner(c);
    const input = await body(c);
    const changes: { fullname?: string; email?: string | null } = {};
    if (input.fullname !== undefined) changes.fullname = parseFullname(input.fullname, current.name);
    if (input.email !== undefined) changes.email = parseEmail(input.email);
    const updated = await accounts.users.update(current.id, changes);
    deps.onChanged();
    return c.json(profile(updated));
  });

  app.put("/password", async (c) => {
    const current = await accountOwner(c);
    const input = await body(c);
    const hash = await accounts.users.passwordHash(current.id);
    // Someone who finds a signed-in browser must not be able to take the account over.
    if (
      hash !== null &&
      (typeof input.currentPassword !== "string" || !(await verifyPassword(input.currentPassword, hash)))
    )
      throw new PermissionDeniedError("The current password is not right.");
    await service.setPassword(current.name, input.newPassword);
    deps.onChanged();
    return c.json({ changed: true, signedOut: true });
  });

  app.get("/usage", async (c) => {
    const current = signedInUser(c).user;
    const since = usageSince(c.req.query("since"));
    return c.json({
      user: current.name,
      since,
      usage: await deps.store.usageReports.ofUser(current.id, since),
    });
  });

  return app;
}
