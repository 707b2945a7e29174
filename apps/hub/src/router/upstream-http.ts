import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/**
 * Keep-alive connection pools to the providers. node:http rather than fetch: the router is a byte pipe, and
 * skipping fetch's Request/Headers/web-stream machinery roughly halves its CPU cost per call.
 */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

export interface UpstreamCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  signal: AbortSignal;
}

/** Sends the request and resolves with the response once its headers have arrived. */
export function sendUpstream(call: UpstreamCall): Promise<IncomingMessage> {
  const send = call.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      call.url,
      {
        method: call.method,
        headers: {
          ...call.headers,
          ...(call.body ? { "content-length": String(call.body.byteLength) } : {}),
        },
        agent: call.url.protocol === "https:" ? httpsAgent : httpAgent,
        signal: call.signal,
      },
      resolve,
    );
    request.once("error", reject);
    request.end(call.body && call.body.byteLength > 0 ? call.body : undefined);
  });
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
