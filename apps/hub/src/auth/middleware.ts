import type { MiddlewareHandler } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { ActorResolver } from "./actor-resolver.js";
import { PermissionDeniedError } from "./auth-errors.js";
import type { Authorizer } from "./authorize.js";
import { secretsEqual } from "./hub-tokens.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CSRF_HEADER = "X-CSRF-Token";

/**
 * Resolves the caller once per request into `c.get("actor")`, next to the one `c.get("authorizer")` that
 * routes hand it to (see auth/authorize.ts). Requests authenticated by the session cookie, which a browser attaches on its own, must prove they
 * come from this hub's pages on every state-changing method: the session's CSRF token in `X-CSRF-Token`
 * (a header no other origin can set without CORS allowing it, and the API does not allow credentials).
 */
export function actorMiddleware(
  resolver: ActorResolver,
  authorizer: Authorizer,
  /** Paths where an HTTP Basic password is a token (git and git-lfs send it so: git/git-routes.ts). */
  basicOn: (path: string) => boolean = () => false,
): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    const sent = c.req.header("Authorization");
    const actor = await resolver.resolve({
      authorization: sent !== undefined && basicOn(c.req.path) ? basicAsBearer(sent) : sent,
      cookie: c.req.header("Cookie"),
    });
    if (actor.kind === "user" && actor.credential.kind === "session" && !SAFE_METHODS.has(c.req.method)) {
      const sent = c.req.header(CSRF_HEADER);
      if (!sent || !secretsEqual(sent, actor.credential.csrfToken)) {
        throw new PermissionDeniedError(
          `Missing or invalid ${CSRF_HEADER} header: reload the page and try again.`,
        );
      }
    }
    c.set("actor", actor);
    c.set("authorizer", authorizer);
    await next();
  };
}

/**
 * `Basic base64(user:token)` as `Bearer token` (any user name, as the public hub takes git's credentials).
 * Anything else is passed on as sent, and an empty password stays an invalid credential.
 */
export function basicAsBearer(header: string): string {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return header;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const password = decoded.slice(decoded.indexOf(":") + 1);
  return decoded.includes(":") && password ? `Bearer ${password}` : header;
}
