import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";

/** What a caller's id may hold to be echoed and logged as is: hono's own rule, plus `;` of trace ids. */
const SAFE_ID = /^[\w\-=;]{1,255}$/;

/**
 * The request id: the caller's `X-Request-Id` when it is safe, else its `X-Amzn-Trace-Id` (huggingface_hub
 * sends one with every request and prints the answer's `X-Request-Id` in its errors, so a user's report and
 * the hub's log name the same request), else a new one. Echoed as `X-Request-Id`.
 */
export function hubRequestId(): MiddlewareHandler {
  return requestId({
    generator: (c) => {
      const trace = c.req.header("X-Amzn-Trace-Id");
      return trace !== undefined && SAFE_ID.test(trace) ? trace : crypto.randomUUID();
    },
  });
}
