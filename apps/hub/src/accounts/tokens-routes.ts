import { type Context, Hono } from "hono";
import { InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { Store } from "../store/store.js";
import { accountsService } from "./accounts-service.js";
import { accountOwner } from "./signed-in.js";

/**
 * The signed-in user's own access tokens (the settings page): `GET /api/settings/tokens`, `POST` `{name,
 * role, fineGrained?, expiresAt?}` (the token is in this answer only), `DELETE /api/settings/tokens/{id}`.
 * Allowed by `authorize(actor, "manage", user)`: a web session (with its CSRF token) or a write token.
 */
export function settingsTokensRoutes(deps: { store: Store; maxBodyBytes: number; onRevoked: () => void }) {
  const service = accountsService(deps.store.accounts);
  const app = new Hono<HubEnv>();

  const owner = (c: Context<HubEnv>) => accountOwner(c, "Sign in to manage your tokens.");

  app.get("/", async (c) => c.json(await deps.store.accounts.tokens.list((await owner(c)).id)));

  app.post("/", async (c) => {
    const user = await owner(c);
    const issued = await service.createToken(user.name, await readJsonBody(c, deps.maxBodyBytes));
    c.header("Cache-Control", "no-store");
    return c.json(issued, 201);
  });

  app.delete("/:id", async (c) => {
    const user = await owner(c);
    const raw = c.req.param("id");
    if (!/^\d{1,12}$/.test(raw)) throw new InvalidInputError("A token id is a positive integer.");
    const revoked = await service.revokeToken(Number(raw), user.id);
    // Verified tokens are cached briefly: a revocation must take effect on the next request.
    deps.onRevoked();
    return c.json(revoked);
  });

  return app;
}
