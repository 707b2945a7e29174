import type { MiddlewareHandler } from "hono";
import type { Logger } from "../logger.js";
import type { HubEnv } from "./hub-env.js";

/**
 * One structured record per request: id, method, path (never the query or headers, which may carry
 * credentials), status and duration.
 */
export function requestLog(logger: Logger): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.log(c.res.status >= 500 ? "error" : "info", "request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
