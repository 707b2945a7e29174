import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { SiteSettingsService } from "../admin/site-settings.js";
import { SESSION_COOKIE } from "../auth/actor-resolver.js";
import { PermissionDeniedError } from "../auth/auth-errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { accountRequest } from "./account-schemas.js";
import type { AccountsService } from "./accounts-service.js";
import type { OidcService } from "./oidc.js";
import { oidcRoutes } from "./oidc-routes.js";
import type { SignInService } from "./sign-in.js";

export { SIGNUP_POLICIES, type SignupPolicy } from "../admin/site-settings.js";

export interface SessionRoutesDeps {
  accounts: AccountsService;
  signIn: SignInService;
  maxBodyBytes: number;
  /** The sign-up policy in force: SIGNUP_POLICY, or a site admin's override (site settings). */
  site: Pick<SiteSettingsService, "signupPolicy">;
  /** `https:` public URLs get Secure cookies. */
  secureCookies: boolean;
  /** Single sign-on through OpenID Connect, when configured. */
  oidc?: OidcService;
  /** Why a single sign-on failed (for the log: the browser only learns that it failed). */
  onSsoFailure?: (error: unknown) => void;
}

const signupRequest = accountRequest.extend({ invite: z.string().optional() });

/**
 * Web sessions: `POST /api/auth/signin {name, password}` sets an HttpOnly, SameSite=Lax cookie (Secure
 * behind HTTPS) and answers the CSRF token the pages send back as `X-CSRF-Token`; `GET /api/auth/session` (`{signedIn: false}` or `{signedIn, name, isAdmin, csrfToken}`);
 * `POST /api/auth/signout` revokes the session server-side; `POST /api/auth/signup {name, password, email?,
 * invite?}` as the sign-up policy allows (`open`, `invite`: with an admin's invite code, `closed`).
 */
export function sessionRoutes(deps: SessionRoutesDeps) {
  const { accounts, signIn } = deps;
  const app = new Hono<HubEnv>();

  const cookie = (value: string, maxAgeSeconds: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${deps.secureCookies ? "; Secure" : ""}`;

  const json = { maxBytes: deps.maxBodyBytes };

  // What the sign-in and sign-up pages offer.
  app.get("/options", async (c) =>
    c.json({ signupPolicy: await deps.site.signupPolicy(), sso: deps.oidc !== undefined }),
  );

  if (deps.oidc) {
    app.route(
      "/oidc",
      oidcRoutes({
        oidc: deps.oidc,
        signIn,
        sessionCookie: cookie,
        secureCookies: deps.secureCookies,
        onFailure: deps.onSsoFailure ?? (() => {}),
      }),
    );
  }

  // Any name and password: every failure answers alike (sign-in.ts), malformed ones included.
  app.post(
    "/signin",
    validate("json", z.object({ name: z.unknown(), password: z.unknown() }), json),
    async (c) => {
      const input = c.req.valid("json");
      const session = await signIn.signIn({ name: input.name, password: input.password });
      c.header(
        "Set-Cookie",
        cookie(session.sessionId, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000)),
      );
      c.header("Cache-Control", "no-store");
      return c.json({ name: session.user.name, csrfToken: session.csrfToken, expiresAt: session.expiresAt });
    },
  );

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
      await signIn.signOut(actor.credential.idHash);
    c.header("Set-Cookie", cookie("", 0));
    return c.json({ signedOut: true });
  });

  // Whether sign-up is open is answered before the body is read.
  const signupOpen: MiddlewareHandler<HubEnv> = async (_c, next) => {
    if ((await deps.site.signupPolicy()) === "closed")
      throw new PermissionDeniedError("Sign-up is closed on this hub: ask an administrator for an account.");
    await next();
  };
  app.post("/signup", signupOpen, validate("json", signupRequest, json), async (c) => {
    const policy = await deps.site.signupPolicy();
    const input = c.req.valid("json");
    if (policy === "invite" && input.invite === undefined) {
      throw new PermissionDeniedError("Sign-up needs an invite on this hub.");
    }
    const user = await accounts.createUser({
      name: input.name,
      email: input.email,
      fullname: input.fullname,
      password: input.password,
      ...(policy === "invite" ? { inviteCode: input.invite } : {}),
    });
    return c.json({ name: user.name }, 201);
  });

  return app;
}
