import { subscribe } from "node:diagnostics_channel";
import { Agent } from "undici";

/**
 * The router's connections to providers: one undici Agent per hub (a keep-alive pool per provider origin,
 * at most 256 connections to one origin; calls beyond wait for one). An idle connection is kept by the
 * provider's own Keep-Alive hint (undici keeps it a little less than the hint, at most 60 s), or 30 s when
 * it sends none, as most HTTPS APIs behind a CDN or load balancer do not (they keep idle connections 60 s
 * or more): undici's 4 s default made a hub that calls a provider less often than every 4 s pay a new TLS
 * handshake on every call. A provider that closes sooner without saying so (uvicorn's 5 s) is seen closing
 * by undici, and a call caught in the race is sent again or to the next provider (failedOnReusedConnection).
 */
export function createProviderAgent(): Agent {
  return new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, connections: 256 });
}

/**
 * Which failed calls had been sent on a reused keep-alive connection. A provider may close an idle connection
 * just as the router reuses it: the call then fails before the provider saw it, and is safe to send once
 * more. A call cut on a new connection is not: the provider had it, and may have done the work. undici does
 * not say which connection a call used; its diagnostics channels do (sendHeaders names the socket), so calls
 * are counted per socket there and the error of a call sent on a used one is marked.
 */
const callsPerSocket = new WeakMap<object, number>();
const sentOnUsedSocket = new WeakSet<object>();
const failedOnUsedSocket = new WeakSet<object>();

subscribe("undici:client:sendHeaders", (message) => {
  const { request, socket } = message as { request: object; socket: object };
  const sent = callsPerSocket.get(socket) ?? 0;
  callsPerSocket.set(socket, sent + 1);
  if (sent > 0) sentOnUsedSocket.add(request);
});
subscribe("undici:request:error", (message) => {
  const { request, error } = message as { request: object; error: unknown };
  if (sentOnUsedSocket.has(request) && typeof error === "object" && error !== null) {
    failedOnUsedSocket.add(error);
  }
});

/** Whether this call's error came from a keep-alive connection reused for it (see above). */
export function failedOnReusedConnection(error: unknown): boolean {
  return typeof error === "object" && error !== null && failedOnUsedSocket.has(error);
}

/** A connection closed or reset by the provider (rather than refused, timed out or malformed). */
export function isConnectionCut(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET";
}
