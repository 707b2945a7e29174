import type { MiddlewareHandler } from "hono";
import type { Logger } from "../logger.js";
import { HubServerResponse } from "./head-with-body.js";
import type { HubEnv } from "./hub-env.js";
import type { HubMetrics } from "./metrics.js";
import { normalizePublicUrl } from "./public-url.js";
import { requestIdOf } from "./request-id.js";
import { logRequest } from "./request-log.js";
import { setSecurityHeaders } from "./security-headers.js";

/**
 * What every request goes through first and every answer last, in one middleware: the request id
 * (`c.get("requestId")`, echoed as `X-Request-Id`), the configured public URL (`c.get("publicUrl")`), then,
 * once the answer is made, its security headers, the request metrics and the request log line.
 *
 * One middleware rather than one per job: each Hono middleware is a dispatch and an async frame per request,
 * and each that wrote headers after the handler did it through its own pass over the answer's `Headers`.
 * In-process, the six middleware this replaces cost ~8 µs more per request than this one (61 against 54
 * µs for a HEAD /resolve-like route; bench/results/2026-11-30-reqcost.md, where the profile of the built
 * hub that led here is too). The headers are written after the handler so that they are on
 * every answer, also one a handler made as its own `Response` (Hono drops headers set before the handler
 * from those: `X-Request-Id` was missing from file downloads).
 */
export function requestEnvelope(deps: {
  logger: Logger;
  metrics: HubMetrics;
  publicUrl: string;
}): MiddlewareHandler<HubEnv> {
  const publicUrl = normalizePublicUrl(deps.publicUrl);
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c);
    c.set("requestId", requestId);
    c.set("publicUrl", publicUrl);
    await next();
    let headers: Headers;
    try {
      headers = c.res.headers;
      headers.set("X-Request-Id", requestId);
    } catch {
      // A Response whose headers are immutable (one passed on from fetch): copied once into a mutable one.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("X-Request-Id", requestId);
    }
    // Behind the hub's Node server the head gets them as it is written (HubServerResponse), at less cost.
    if (!((c.env as { outgoing?: unknown } | undefined)?.outgoing instanceof HubServerResponse)) {
      setSecurityHeaders(headers);
    }
    deps.metrics.observeRequest(c, started, headers);
    // A route that logs the request itself (the router's call line) already carries these fields.
    if (c.get("requestLoggedByRoute") !== true) logRequest(deps.logger, c, requestId, started);
  };
}
