import { type IncomingMessage, ServerResponse } from "node:http";

/**
 * A response that says `Connection: close` when it is sent before the request's body was read to its end (an
 * upload refused part way: storage full, too large, not authorized).
 *
 * Without it the connection stays keep-alive on the client's side while node:http, whose request stream was
 * destroyed unread, resets it: a client that had already written the whole body puts the socket back in its
 * pool and its next request fails with ECONNRESET (and some answers never arrive). Saying so in the answer
 * makes every client open a new connection instead; node:http then closes this one after the answer.
 */
export class UnreadBodyClosingResponse extends ServerResponse<IncomingMessage> {
  // node:http calls writeHead for implicit headers too, so this sees every answer before its head is sent.
  override writeHead(...args: [statusCode: number, ...rest: unknown[]]): this {
    if (!this.req.complete && hasBody(this.req)) this.shouldKeepAlive = false;
    return superWriteHead.apply(this, args);
  }
}

const superWriteHead = ServerResponse.prototype.writeHead as (
  this: ServerResponse,
  ...args: unknown[]
) => never;

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
