import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

type CorsOptions = Parameters<typeof cors>[0] & { origin: "*"; exposeHeaders: string[] };

/**
 * Hono's `cors` for any origin, with the headers of an ordinary (non-preflight) answer set on the handler's
 * Response after it is made. Hono's middleware sets them on `c.res` before the handler runs, which creates a
 * placeholder Response that Hono then rebuilds (a second Response, every header copied) when the handler
 * returns its own: ~24% of the CPU of `GET /api/models/{id}` in bench/results/2026-11-29-serve.md.
 * Preflights (OPTIONS) are Hono's, unchanged.
 */
export function anyOriginCors(options: CorsOptions): MiddlewareHandler {
  const preflight = cors(options);
  const exposed = options.exposeHeaders.join(",");
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    let headers = c.res.headers;
    try {
      headers.set("Access-Control-Allow-Origin", "*");
    } catch {
      // A Response whose headers are immutable (one passed on from fetch): copied once into a mutable one.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("Access-Control-Allow-Origin", "*");
    }
    if (exposed) headers.set("Access-Control-Expose-Headers", exposed);
  };
}
