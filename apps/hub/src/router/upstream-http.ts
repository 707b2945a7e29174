import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/**
 * Keep-alive connection pools to the providers. node:http rather than fetch: the router is a byte pipe, and
 * skipping fetch's Request/Headers/web-stream machinery roughly halves its CPU cost per call.
 */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/** Where one upstream's calls go, parsed once (no URL object per call). */
export interface UpstreamTarget {
  https: boolean;
  hostname: string;
  port: number;
  /** The base URL's path, without a trailing slash; the provider path is appended to it. */
  pathPrefix: string;
}

/**
 * Starts a call on the keep-alive pool; the caller writes the body and ends it. Nagle is off on the upstream
 * socket, so that the request (and any small body) leaves at once.
 */
export function startUpstreamRequest(
  target: UpstreamTarget,
  call: { method: string; path: string; headers: OutgoingHttpHeaders },
  onResponse: (response: IncomingMessage) => void,
): ClientRequest {
  const send = target.https ? httpsRequest : httpRequest;
  const request = send(
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
  request.setNoDelay(true);
  return request;
}

/** Reads a whole (small) response body, stopping at `maxBytes`. */
export async function readUpstreamBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      response.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
