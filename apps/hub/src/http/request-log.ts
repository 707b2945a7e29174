import type { Context } from "hono";
import type { Logger } from "../logger.js";

/**
 * One structured record per request: id, method, path (never the query or headers, which may carry
 * credentials), status and duration. Written by the envelope (request-envelope.ts) once the answer is made.
 */
export function logRequest(logger: Logger, c: Context, requestId: string, startedMs: number): void {
  const status = c.res.status;
  logger.log(status >= 500 ? "error" : "info", "request", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status,
    ms: Math.round((performance.now() - startedMs) * 10) / 10,
  });
}
