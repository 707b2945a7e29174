/**
 * Applies the rate-limit policy to each request after its caller is known: counts it in its bucket for its
 * token, session or address, sets the public hub's `RateLimit` and `RateLimit-Policy` headers on the answer
 * (huggingface_hub reads them: utils/_http.py parse_ratelimit_headers), and refuses with 429 and `Retry-After`
 * once the window's allowance is spent.
 */
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import type { Actor } from "../auth/actor.js";
import { HubError, renderError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { limitFor, type RateLimitBucket, type RateLimitPolicy } from "./rate-limit-policy.js";
import type { RateLimiter } from "./rate-limiter.js";

export class RateLimitedError extends HubError {
  constructor(bucket: RateLimitBucket, limit: number, windowSeconds: number, resetSeconds: number) {
    super(
      429,
      "rate_limited",
      `Too many requests: the limit is ${limit} ${bucket} requests per ${windowSeconds} s for this caller. ` +
        `Retry after ${resetSeconds} s; a site administrator can raise the limit (RATE_LIMITS).`,
    );
  }
}

/**
 * Which bucket a request counts in, as the public hub splits them: `/resolve/` downloads, Hub API calls,
 * and web pages (a browser's navigation: GET asking for HTML). Anything else (static assets, git, LFS and
 * Xet transfers, the router, health and metrics) is not counted here.
 */
export function bucketOf(
  method: string,
  path: string,
  accept: string | undefined,
): RateLimitBucket | undefined {
  if (path.includes("/resolve/")) return "resolvers";
  if (path.startsWith("/api/")) return "api";
  if (method === "GET" && accept !== undefined && accept.includes("text/html")) return "pages";
  return undefined;
}

/** Who is counted: the token, the browser session, or the address of an anonymous caller. */
export function subjectOf(actor: Actor, address: () => string): string | undefined {
  if (actor.kind === "user") {
    return actor.credential.kind === "token"
      ? `t:${actor.credential.token.id}`
      : `s:${actor.credential.idHash}`;
  }
  if (actor.kind === "anonymous") return `a:${address()}`;
  return undefined;
}

export function rateLimitMiddleware(
  policy: RateLimitPolicy,
  limiter: RateLimiter,
): MiddlewareHandler<HubEnv> {
  const window = policy.windowSeconds;
  const address = (c: Context<HubEnv>) => () => {
    if (policy.trustForwardedFor) {
      const forwarded = c.req.header("x-forwarded-for");
      if (forwarded) return forwarded.split(",")[0]!.trim();
    }
    return (
      (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress ?? "unknown"
    );
  };
  return async (c, next) => {
    const bucket = bucketOf(c.req.method, c.req.path, c.req.header("accept"));
    if (bucket === undefined) return next();
    const actor = c.get("actor");
    const limit = limitFor(policy, actor, bucket);
    const subject = limit === undefined ? undefined : subjectOf(actor, address(c));
    if (limit === undefined || subject === undefined) return next();
    const decision = limiter.hit(bucket, subject, limit);
    const state = `"${bucket}";r=${decision.remaining};t=${decision.resetSeconds}`;
    const policyHeader = `"fixed window";"${bucket}";q=${limit};w=${window}`;
    if (!decision.allowed) {
      c.header("RateLimit", state);
      c.header("RateLimit-Policy", policyHeader);
      c.header("Retry-After", String(decision.resetSeconds));
      return renderError(c, new RateLimitedError(bucket, limit, window, decision.resetSeconds));
    }
    await next();
    // On the answer itself (cheaper than Hono's prepared headers, merged into every response); an answer
    // passed through with immutable headers (a proxied body) keeps its own.
    try {
      c.res.headers.set("RateLimit", state);
      c.res.headers.set("RateLimit-Policy", policyHeader);
    } catch {
      // Immutable headers: nothing to add.
    }
  };
}
