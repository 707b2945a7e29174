import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody, HubError } from "../errors.js";

/**
 * Requests node:http refuses before the app sees them (malformed or oversized headers, bad chunking) and
 * HTTP/1.1 requests without Host, answered in the hub's one JSON error shape instead of a bare status line.
 */

/** node:http's parser error code -> what the caller is told. */
function parserProblem(code: string | undefined): HubError {
  if (code === "HPE_HEADER_OVERFLOW")
    return new HubError(431, "headers_too_large", "The request headers are larger than the server accepts.");
  if (code === "HPE_CHUNK_SIZE" || code === "HPE_INVALID_CHUNK_SIZE")
    return new HubError(400, "bad_request", "The request body's chunked encoding is malformed.");
  if (
    code === "HPE_INVALID_HEADER_TOKEN" ||
    code === "HPE_INVALID_HEADER_VALUE" ||
    code === "HPE_LF_EXPECTED"
  )
    return new HubError(400, "bad_request", "The request has a malformed header.");
  if (code === "HPE_INVALID_METHOD" || code === "HPE_INVALID_URL" || code === "HPE_INVALID_VERSION")
    return new HubError(400, "bad_request", "The request line is malformed.");
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return new HubError(408, "request_timeout", "The request was not received in time.");
  return new HubError(400, "bad_request", "The request is not valid HTTP.");
}

/** A raw HTTP/1.1 response carrying the JSON error body; the connection is closed behind it. */
function rawResponse(error: HubError): string {
  const body = JSON.stringify(errorBody(error));
  const reason =
    error.status === 431
      ? "Request Header Fields Too Large"
      : error.status === 408
        ? "Request Timeout"
        : "Bad Request";
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Cache-Control: no-store\r\n" +
    "Connection: close\r\n\r\n" +
    body
  );
}

/** The server's `clientError` listener. */
export function answerParserError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection, or one already answered, has no one left to tell.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(parserProblem(error.code)));
}

/**
 * node:http's own Host check (off on the hub's server so that this answer is JSON): an HTTP/1.1 request
 * must carry Host (RFC 9112 section 3.2). Returns true when it answered.
 */
export function answerMissingHost(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (incoming.httpVersion !== "1.1" || incoming.headers.host !== undefined) return false;
  const body = JSON.stringify(
    errorBody(new HubError(400, "bad_request", "An HTTP/1.1 request must carry a Host header.")),
  );
  outgoing.writeHead(400, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    Connection: "close",
  });
  outgoing.end(body);
  return true;
}
