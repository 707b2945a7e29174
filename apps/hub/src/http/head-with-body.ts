import type { Socket } from "node:net";
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
