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
export function actorMiddleware(resolver: ActorResolver, authorizer: Authorizer): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    const actor = await resolver.resolve({
      authorization: c.req.header("Authorization"),
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
