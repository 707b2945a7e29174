import type { Context } from "hono";
import { incomingHeader } from "./incoming-header.js";

/** What a caller's `X-Request-Id` may hold to be echoed and logged as is (hono's requestId rule). */
const SAFE_REQUEST_ID = /^[\w\-=]{1,255}$/;
/** The same for `X-Amzn-Trace-Id`, plus the `;` between its fields. */
const SAFE_TRACE_ID = /^[\w\-=;]{1,255}$/;

/**
 * The request id: the caller's `X-Request-Id` when it is safe, else its `X-Amzn-Trace-Id` (huggingface_hub
 * sends one with every request and prints the answer's `X-Request-Id` in its errors, so a user's report and
 * the hub's log name the same request), else a new one. The envelope (request-envelope.ts) keeps it as
 * `c.get("requestId")` and echoes it as `X-Request-Id`.
 */
export function requestIdOf(c: Context): string {
  const sent = incomingHeader(c, "x-request-id");
  if (sent !== undefined && SAFE_REQUEST_ID.test(sent)) return sent;
  const trace = incomingHeader(c, "x-amzn-trace-id");
  return trace !== undefined && SAFE_TRACE_ID.test(trace) ? trace : crypto.randomUUID();
}
