import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/**
 * Keep-alive connection pools to the providers. node:http rather than fetch: the router is a byte pipe, and
 * skipping fetch's Request/Headers/web-stream machinery roughly halves its CPU cost per call.
 */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256, noDelay: true });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, noDelay: true });

/** Where one upstream's calls go, parsed once (no URL object per call). */
export interface UpstreamTarget {
  https: boolean;
  hostname: string;
  port: number;
  /** The base URL's path, without a trailing slash; the provider path is appended to it. */
  pathPrefix: string;
  /** The Host header: the host name, with the port when not the default one. */
  host: string;
}

/**
 * Starts a call on the keep-alive pool; the caller writes the body and ends it. Nagle is off on the pool's
 * sockets (`noDelay`), so that the request (and any small body) leaves at once. The headers are a flat
 * `[name, value, ...]` list with the Host header in it (node:http adds none to a list).
 */
export function startUpstreamRequest(
  target: UpstreamTarget,
  call: { method: string; path: string; headers: string[] },
  onResponse: (response: IncomingMessage) => void,
): ClientRequest {
  const send = target.https ? httpsRequest : httpRequest;
  return send(
    {
      hostname: target.hostname,
      port: target.port,
      method: call.method,
      path: call.path,
      headers: call.headers,
      agent: target.https ? httpsAgent : httpAgent,
    },
    onResponse,
  );
}
