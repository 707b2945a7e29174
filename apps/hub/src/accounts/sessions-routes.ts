import { type Context, Hono } from "hono";
import type { SiteSettingsService } from "../admin/site-settings.js";
import { SESSION_COOKIE } from "../auth/actor-resolver.js";
import { PermissionDeniedError } from "../auth/auth-errors.js";
import { readJsonObject } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { Store } from "../store/store.js";
import { accountsService } from "./accounts-service.js";
import type { OidcService } from "./oidc.js";
import { oidcRoutes } from "./oidc-routes.js";
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits, signInService } from "./sign-in.js";

export { SIGNUP_POLICIES, type SignupPolicy } from "../admin/site-settings.js";

export interface SessionRoutesDeps {
  store: Store;
  maxBodyBytes: number;
  /** The sign-up policy in force: SIGNUP_POLICY, or a site admin's override (site settings). */
  site: Pick<SiteSettingsService, "signupPolicy">;
  /** `https:` public URLs get Secure cookies. */
  secureCookies: boolean;
  limits?: SignInLimits;
  /** Single sign-on through OpenID Connect, when configured. */
  oidc?: OidcService;
  /** Why a single sign-on failed (for the log: the browser only learns that it failed). */
  onSsoFailure?: (error: unknown) => void;
}

/**
 * Web sessions: `POST /api/auth/signin {name, password}` sets an HttpOnly, SameSite=Lax cookie (Secure
 * behind HTTPS) and answers the CSRF token the pages send back as `X-CSRF-Token`; `GET /api/auth/session` (`{signedIn: false}` or `{signedIn, name, isAdmin, csrfToken}`);
 * `POST /api/auth/signout` revokes the session server-side; `POST /api/auth/signup {name, password, email?,
 * invite?}` as the sign-up policy allows (`open`, `invite`: with an admin's invite code, `closed`).
 */
export function sessionRoutes(deps: SessionRoutesDeps) {
  const accounts = deps.store.accounts;
  const signIn = signInService(accounts, deps.limits ?? DEFAULT_SIGN_IN_LIMITS);
  const app = new Hono<HubEnv>();

  const cookie = (value: string, maxAgeSeconds: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${deps.secureCookies ? "; Secure" : ""}`;

  const body = (c: Context<HubEnv>) => readJsonObject(c, deps.maxBodyBytes);

  // What the sign-in and sign-up pages offer.
  app.get("/options", async (c) =>
    c.json({ signupPolicy: await deps.site.signupPolicy(), sso: deps.oidc !== undefined }),
  );

  if (deps.oidc) {
    app.route(
      "/oidc",
      oidcRoutes({
        oidc: deps.oidc,
        accounts,
        sessionCookie: cookie,
        secureCookies: deps.secureCookies,
        onFailure: deps.onSsoFailure ?? (() => {}),
      }),
    );
  }

  app.post("/signin", async (c) => {
    const input = await body(c);
    const session = await signIn.signIn({ name: input.name, password: input.password });
    c.header(
      "Set-Cookie",
      cookie(session.sessionId, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000)),
    );
    c.header("Cache-Control", "no-store");
    return c.json({ name: session.user.name, csrfToken: session.csrfToken, expiresAt: session.expiresAt });
  });

  // 200 either way: every page asks on load, and a reader who is not signed in is not an error.
  app.get("/session", (c) => {
    const actor = c.get("actor");
    c.header("Cache-Control", "no-store");
    if (actor.kind !== "user" || actor.credential.kind !== "session") return c.json({ signedIn: false });
    return c.json({
      signedIn: true,
      name: actor.user.name,
      isAdmin: actor.user.isAdmin,
      csrfToken: actor.credential.csrfToken,
    });
  });

  app.post("/signout", async (c) => {
    const actor = c.get("actor");
    // The actor middleware has checked the CSRF token of this cookie-authenticated request.
    if (actor.kind === "user" && actor.credential.kind === "session")
      await accounts.sessions.revoke(actor.credential.idHash);
    c.header("Set-Cookie", cookie("", 0));
    return c.json({ signedOut: true });
  });

  app.post("/signup", async (c) => {
    const policy = await deps.site.signupPolicy();
    if (policy === "closed")
      throw new PermissionDeniedError("Sign-up is closed on this hub: ask an administrator for an account.");
    const input = await body(c);
    if (policy === "invite" && typeof input.invite !== "string") {
      throw new PermissionDeniedError("Sign-up needs an invite on this hub.");
    }
    const user = await accountsService(accounts).createUser({
      name: input.name,
      email: input.email,
      fullname: input.fullname,
      password: input.password,
      ...(policy === "invite" ? { inviteCode: input.invite as string } : {}),
    });
    return c.json({ name: user.name }, 201);
  });

  return app;
}
