import { Agent, type Dispatcher } from "undici";

/**
 * Keep-alive connection pools to the providers, one per origin, on undici's dispatcher: the router is a byte
 * pipe, and undici's handler API passes a provider's head and body chunks straight to the router, without the
 * streams, sockets bookkeeping and per-call objects of node:http's client. A bare proxy on it costs 0.086 ms
 * of CPU per non-streamed chat where the same proxy on node:http's client costs 0.109 (c1, loopback; see
 * bench/results/2026-11-27-router.md). undici sets TCP_NODELAY on its sockets, so a request leaves at once,
 * and drops a pooled connection before the provider's `Keep-Alive: timeout` runs out.
 */
const agent = new Agent({ connections: 256 });

/** Where one upstream's calls go, parsed once (no URL object per call). */
export interface UpstreamTarget {
  /** `http(s)://host[:port]`: the pool the call goes to. */
  origin: string;
  /** The base URL's path, without a trailing slash; the provider path is appended to it. */
  pathPrefix: string;
  /** The Host header: the host name, with the port when not the default one. */
  host: string;
}

export interface UpstreamCall {
  method: string;
  path: string;
  /** A flat `[name, value, ...]` list, with the Host header in it. */
  headers: string[];
  body: Buffer | undefined;
  /** Until the provider's head arrives. */
  headersTimeoutMs: number;
  /** The longest silence between two reads of the provider's body. */
  bodyTimeoutMs: number;
}

/** The handler of one call: undici calls it with the provider's head, each body chunk, the end or an error. */
export type UpstreamHandler = Dispatcher.DispatchHandler;
/** What a handler gets to pause, resume or abort its call. */
export type UpstreamController = Dispatcher.DispatchController;

/** Starts a call on the keep-alive pool of the target's origin; `handler` sees the rest. */
export function dispatchUpstream(target: UpstreamTarget, call: UpstreamCall, handler: UpstreamHandler): void {
  agent.dispatch(
    {
      origin: target.origin,
      method: call.method,
      path: call.path,
      headers: call.headers,
      body: call.body,
      headersTimeout: call.headersTimeoutMs,
      bodyTimeout: call.bodyTimeoutMs,
    },
    handler,
  );
}

/** undici's code for a provider that did not send its head in time. */
export const HEADERS_TIMEOUT_CODE = "UND_ERR_HEADERS_TIMEOUT";

/**
 * Whether an error means the provider's connection was cut before it answered (reset, or closed by the other
 * side): on a pooled keep-alive connection this is how a provider that closed it while idle shows, and the
 * call never reached it.
 */
export function isConnectionCut(error: Error & { code?: string }): boolean {
  return error.code === "ECONNRESET" || error.code === "EPIPE" || error.code === "UND_ERR_SOCKET";
}
