import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { HubEnv } from "../http/hub-env.js";
import { sameOriginPath } from "../http/same-origin-path.js";
import type { OidcService, PendingSignIn } from "./oidc.js";
import { SingleSignOnError } from "./oidc.js";
import type { SignInService } from "./sign-in.js";

const PENDING_COOKIE = "modelhub_oidc";
const PENDING_SECONDS = 600;

/**
 * `GET /api/auth/oidc/start?next=/path[&invite=CODE]` sends the browser to the provider, keeping state, nonce and the
 * PKCE verifier in a short-lived HttpOnly cookie scoped to these routes; `GET /api/auth/oidc/callback`
 * checks the answer, opens a session (the same cookie as a password sign-in) and goes on to `next`. A
 * failure goes back to the sign-in page with `?sso=failed` (the reason is logged, never shown in the URL).
 */
export function oidcRoutes(deps: {
  oidc: OidcService;
  signIn: Pick<SignInService, "openSession">;
  sessionCookie: (value: string, maxAgeSeconds: number) => string;
  secureCookies: boolean;
  onFailure: (error: unknown) => void;
}) {
  const app = new Hono<HubEnv>();
  const pendingCookie = (value: string, maxAge: number) =>
    `${PENDING_COOKIE}=${value}; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${deps.secureCookies ? "; Secure" : ""}`;

  app.get("/start", async (c) => {
    const invite = c.req.query("invite");
    const { url, pending } = await deps.oidc.start(
      sameOriginPath(c.req.query("next")),
      invite && invite.length <= 200 ? invite : undefined,
    );
    c.header(
      "Set-Cookie",
      pendingCookie(Buffer.from(JSON.stringify(pending)).toString("base64url"), PENDING_SECONDS),
    );
    c.header("Cache-Control", "no-store");
    return c.redirect(url.href, 302);
  });

  app.get("/callback", async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Set-Cookie", pendingCookie("", 0), { append: true });
    try {
      const raw = getCookie(c, PENDING_COOKIE);
      if (!raw) throw new SingleSignOnError("the sign-in took too long or was started elsewhere; try again.");
      let pending: PendingSignIn;
      try {
        pending = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as PendingSignIn;
      } catch {
        throw new SingleSignOnError("the sign-in state is damaged; try again.");
      }
      const search = new URL(c.req.url).search;
      const user = await deps.oidc.finish(search, pending);
      const session = await deps.signIn.openSession(user.id);
      c.header(
        "Set-Cookie",
        deps.sessionCookie(
          session.sessionId,
          Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000),
        ),
        { append: true },
      );
      return c.redirect(sameOriginPath(pending.next), 302);
    } catch (error) {
      deps.onFailure(error);
      return c.redirect("/login?sso=failed", 302);
    }
  });

  return app;
}
