import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * Whether the caller of a router call went away, as undici's `signal` option takes it (an EventTarget or an
 * EventEmitter emitting "abort") and as provider-call.ts reads it (`aborted`).
 */
export type CallerSignal = AbortSignal | CallerGone;

/** The caller's connection closed before its answer was sent whole: an EventEmitter emitting "abort". */
export class CallerGone extends EventEmitter {
  aborted = false;
}

/**
 * The caller's going away, from node:http's response itself: "close" before the answer finished (or with the
 * request errored) is what @hono/node-server aborts `c.req.raw.signal` on. Not that signal: it is made per
 * request on first use (an AbortController), and undici listens to it through EventTarget's
 * `addEventListener`, together ~3% of the hub's CPU per router call (bench:router zero-latency profile,
 * 2026-11-30); an EventEmitter's listener is a plain function in a list. Without node:http (in-process
 * requests, `app.request()`), the Request's own signal.
 */
export function callerSignal(c: Context): CallerSignal {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  const incoming = env?.incoming;
  const outgoing = env?.outgoing;
  if (!incoming || !outgoing || typeof outgoing.once !== "function") return c.req.raw.signal;
  const gone = new CallerGone();
  const closed = () => {
    if (outgoing.writableFinished && !incoming.errored) return;
    gone.aborted = true;
    gone.emit("abort");
  };
  // Already closed while the body was read: no "close" comes again.
  if (outgoing.closed) closed();
  else outgoing.once("close", closed);
  return gone;
}
