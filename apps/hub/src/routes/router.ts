import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { authenticateHubToken } from "../auth/token-service.js";
import { InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { readBodyBytes } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { Logger } from "../logger.js";
import { type ForwardTimeouts, forwardToProvider } from "../router/forward.js";
import { recordRouterCall } from "../router/record-call.js";
import type { Upstreams } from "../router/upstreams.js";
import type { Store } from "../store/store.js";

export interface RouterRoutesDeps {
  store: Store;
  upstreams: Upstreams;
  logger: Logger;
  timeouts: ForwardTimeouts;
  maxBodyBytes: number;
}

/**
 * The provider path after `/router/{provider}`, still URL-encoded, refused when it could climb out of the
 * provider's base path or smuggle separators: `.`/`..` segments, encoded slashes or backslashes, empty
 * segments, control characters.
 */
export function providerPathFrom(rawPathname: string, provider: string): string {
  const path = rawPathname.slice(`/router/${provider}`.length);
  if (!path.startsWith("/") || path.length < 2) {
    throw new InvalidInputError(
      `Missing the provider path: /router/${provider}/<path of the provider's API>.`,
    );
  }
  if (/%(2f|5c|00)/i.test(path) || /[\\\u0000-\u001f]/.test(path) || path.includes("//")) {
    throw new InvalidInputError(
      "Invalid provider path: encoded slashes, backslashes and empty segments are refused.",
    );
  }
  for (const segment of path.slice(1).split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new InvalidInputError("Invalid provider path: bad percent-encoding.");
    }
    if (decoded === "." || decoded === "..") {
      throw new InvalidInputError('Invalid provider path: "." and ".." segments are refused.');
    }
  }
  return path;
}

/** The hub model a call is about, for usage records: the JSON body's `model`, or the `/models/{id}` path. */
function modelOf(body: Uint8Array | undefined, providerPath: string): string | null {
  if (body && body.byteLength > 0 && body[0] === 0x7b) {
    try {
      const parsed = JSON.parse(Buffer.from(body).toString("utf8")) as { model?: unknown };
      if (typeof parsed.model === "string") return parsed.model.slice(0, 200);
    } catch {
      // Not JSON: fall through to the path.
    }
  }
  const match = /^\/(?:models|pipeline\/[^/]+)\/([^/?]+\/[^/?]+|[^/?]+)/.exec(providerPath);
  return match?.[1] ? decodeURIComponent(match[1]).slice(0, 200) : null;
}

/** The security headers of the app's middleware that matter for a piped (non-HTML) answer. */
const PIPED_SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
  "referrer-policy": "no-referrer",
};

/**
 * `POST|GET /router/{provider}/{provider path}`: the layout the inference client uses for its router URL.
 * Authenticates the hub token, then forwards to the provider with the hub's own credential for it.
 */
export function routerRoutes(deps: RouterRoutesDeps) {
  const app = new Hono<HubEnv>();

  app.on(["GET", "POST"], "/:provider/*", async (c) => {
    const provider = c.req.param("provider");
    if (!deps.upstreams.isKnown(provider)) {
      throw new NotFoundError(`Unknown inference provider "${provider.slice(0, 60)}".`);
    }
    const token = authenticateHubToken(deps.store, c.req.header("Authorization"), "inference");
    const url = new URL(c.req.url);
    const providerPath = providerPathFrom(url.pathname, provider);
    const upstream = deps.upstreams.get(provider);
    if (!upstream) {
      throw new UnavailableError(
        `Provider ${provider} is not configured on this hub (set ${deps.upstreams.keyVariable(provider)}).`,
      );
    }
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    if (!outgoing) throw new UnavailableError("The router runs only on the hub's Node server.");
    const body = c.req.method === "POST" ? await readBodyBytes(c, deps.maxBodyBytes) : undefined;
    const model = modelOf(body, providerPath);
    const requestId = c.get("requestId");
    // last_used_at is for people ("used today?"): a minute of precision spares a write per call.
    if (!token.lastUsedAt || Date.now() - Date.parse(token.lastUsedAt) > 60_000)
      deps.store.tokens.markUsed(token.id);

    return forwardToProvider({
      upstream,
      method: c.req.method,
      pathAndQuery: providerPath + url.search,
      headers: c.req.raw.headers,
      body,
      callerSignal: c.req.raw.signal,
      requestId,
      timeouts: deps.timeouts,
      outgoing,
      responseHeaders: new Headers({ ...Object.fromEntries(c.res.headers), ...PIPED_SECURITY_HEADERS }),
      onDone: (result) =>
        recordRouterCall(
          deps,
          {
            requestId,
            tokenId: token.id,
            provider,
            model,
            target: upstream.target,
            requestBytes: body?.byteLength ?? 0,
          },
          result,
        ),
    });
  });

  app.all("*", (c) => {
    throw new NotFoundError(
      `No route for ${c.req.method} ${c.req.path}: use POST /router/{provider}/{path}.`,
    );
  });

  return app;
}
