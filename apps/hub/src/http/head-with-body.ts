import type { OutgoingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { isReplacedBySecurityHeaders, SECURITY_HEADERS, withSecurityHeaders } from "./security-headers.js";
import { UnreadBodyClosingResponse } from "./unread-body-close.js";

/**
 * The hub's answer to every request (node:http's `ServerResponse` option): an unread body still closes the
 * connection (UnreadBodyClosingResponse), and a streamed answer's head leaves with the body's first bytes.
 *
 * @hono/node-server flushes the head of an answer with a stream body (`flushHeaders`) before it reads the
 * stream, in a socket write of its own. For a router call the provider's first event has usually arrived with
 * its head, so the caller got two writes (two wake-ups) where a proxy sends one: bench:router counted four
 * socket writes per streamed call against the bare proxy's two, and on loopback each write runs the
 * receiver's TCP path on the writer's CPU. Here the socket is corked when the head is flushed and uncorked
 * once the current tick's work is done (the promise jobs that read the stream's first chunk included): what the
 * stream had ready goes out with the head in one write; a stream with nothing ready still sends its head
 * within the tick.
 */
export class HubServerResponse extends UnreadBodyClosingResponse {
  /**
   * Every answer's head carries the security headers (security-headers.ts), written here rather than by the
   * request envelope into each answer's `Headers`: eleven validated `Headers.set`s, and eleven more entries
   * for @hono/node-server to sort and copy, were ~2% of the hub's CPU per router call (bench:router profile,
   * 2026-11-30-router-4.md). The envelope still writes them into the `Headers` of answers that do not
   * leave through this class (in-process requests).
   */
  override writeHead(...args: [statusCode: number, ...rest: unknown[]]): this {
    const last = args.length - 1;
    const headers = args[last];
    if (last > 0 && typeof headers === "object" && headers !== null && !Array.isArray(headers)) {
      // @hono/node-server's form: one record of the answer's headers.
      args[last] = withSecurityHeaders(headers as OutgoingHttpHeaders);
    } else if (last > 0 && Array.isArray(headers)) {
      // The raw forms (flat name, value list, or pairs): the security headers' names dropped, theirs added.
      args[last] = withSecurityPairs(headers as unknown[]);
    } else {
      // Headers set one by one (implicit heads): the same, on the response's own headers.
      for (const name of this.getHeaderNames())
        if (isReplacedBySecurityHeaders(name)) this.removeHeader(name);
      for (const [name, value] of SECURITY_HEADERS) this.setHeader(name, value);
    }
    return super.writeHead(...args);
  }

  override flushHeaders(): void {
    // Not `headersSent`: node:http sets it at writeHead, before anything is written.
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      socket.cork();
      process.nextTick(uncork, socket);
    }
    super.flushHeaders();
  }
}

/** node:http's own `end()` may have uncorked the socket already: `uncork` is a no-op then. */
function uncork(socket: Socket): void {
  socket.uncork();
}

/** A raw header list (`[name, value, ...]` or `[[name, value], ...]`) with the security headers in place. */
function withSecurityPairs(headers: unknown[]): unknown[] {
  if (headers.length > 0 && Array.isArray(headers[0])) {
    const pairs = (headers as [string, unknown][]).filter(([name]) => !isReplacedBySecurityHeaders(name));
    return [...pairs, ...SECURITY_HEADERS.map(([name, value]) => [name, value])];
  }
  const flat: unknown[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (!isReplacedBySecurityHeaders(String(headers[i]))) flat.push(headers[i], headers[i + 1]);
  }
  for (const [name, value] of SECURITY_HEADERS) flat.push(name, value);
  return flat;
}
