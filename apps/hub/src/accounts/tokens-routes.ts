import { type Context, Hono, type MiddlewareHandler } from "hono";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { tokenIdParam } from "./account-schemas.js";
import type { AccountsService } from "./accounts-service.js";
import { accountOwner, signedInUser } from "./signed-in.js";

export interface TokensRoutesDeps {
  accounts: AccountsService;
  maxBodyBytes: number;
  /** Verified tokens are cached briefly: a revocation must take effect on the next request. */
  onRevoked: () => void;
}

/**
 * The signed-in user's own access tokens (the settings page): `GET /api/settings/tokens`, `POST` `{name,
 * role, fineGrained?, expiresAt?}` (the token is in this answer only), `DELETE /api/settings/tokens/{id}`.
 * Allowed by `authorize(actor, "manage", user)`: a web session (with its CSRF token) or a write token.
 */
export function settingsTokensRoutes(deps: TokensRoutesDeps) {
  const { accounts } = deps;
  const app = new Hono<HubEnv>();
  const owner: MiddlewareHandler<HubEnv> = async (c, next) => {
    await accountOwner(c, "Sign in to manage your tokens.");
    await next();
  };
  const user = (c: Context<HubEnv>) => signedInUser(c).user;
  app.use("*", owner);

  app.get("/", async (c) => c.json(await accounts.tokensOf(user(c).id)));

  // The token request is checked by the accounts service (the admin API and CLI make tokens alike).
  app.post("/", async (c) => {
    const issued = await accounts.createToken(user(c).name, await readJsonBody(c, deps.maxBodyBytes));
    c.header("Cache-Control", "no-store");
    return c.json(issued, 201);
  });

  app.delete("/:id", validate("param", tokenIdParam), async (c) => {
    const revoked = await accounts.revokeToken(c.req.valid("param").id, user(c).id);
    deps.onRevoked();
    return c.json(revoked);
  });

  return app;
}
