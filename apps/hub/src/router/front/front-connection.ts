import type { Server } from "node:http";
import type { Socket } from "node:net";
import { type ExchangeConnection, FrontRequest, FrontResponse } from "./front-exchange.js";
import { INCOMPLETE, NOT_MINE, parseRequestHead } from "./request-head.js";

export interface RouterFrontOptions {
  /** Whether a request is the router's (its method and target): others go to node:http. */
  accepts(method: string, target: string): boolean;
  /** Answers a router call. */
  handle(request: FrontRequest, response: FrontResponse): void;
  /** The router's body limit: a longer body is counted, not kept (its call is refused). */
  maxBodyBytes: number;
}

export interface RouterFront {
  /** Closes the connections the front holds that are between calls; the others close after their answer. */
  closeIdleConnections(): void;
  /** Closes every connection the front holds at once. */
  closeAllConnections(): void;
}

/** Bytes of pipelined requests held while a call is answered; past them the socket is not read. */
const MAX_PENDING_BYTES = 64 * 1024;
/** How often the front looks for connections past their timeouts. */
const SWEEP_MS = 1000;

/**
 * The router's front: router calls (`/v1/...`, `/router/...`) are read and answered on the socket by the front
 * itself (request-head.ts, front-exchange.ts), without node:http's per-request machinery (an IncomingMessage
 * stream, a ServerResponse, their events), which took ~15 % of the hub's CPU per router call (bench:hub,
 * non-streamed chat at 64 concurrent calls: hop CPU 1.03x the bare pipe proxy's before, 0.87x after). A
 * connection whose next request is anything else (another path or method, a head the strict parser is not sure
 * of, a head not whole in what arrived) is handed to node:http with the bytes read, at a request boundary, and
 * stays with node:http from then on.
 *
 * Installed on the hub's node:http server in place of its own connection listener, so the server's listening
 * socket, connection count and `close()` cover both; the front applies the server's `keepAliveTimeout`,
 * `headersTimeout` and `requestTimeout` to the connections it holds.
 */
export function installRouterFront(server: Server, options: RouterFrontOptions): RouterFront {
  const [nodeListener, ...others] = server.listeners("connection") as ((socket: Socket) => void)[];
  if (!nodeListener || others.length > 0) {
    throw new Error("installRouterFront expects node:http's own connection listener, alone.");
  }
  server.removeListener("connection", nodeListener);
  const connections = new Set<FrontConnection>();
  let closing = false;
  const front: FrontContext = {
    options,
    server,
    get closing() {
      return closing;
    },
    handOver(connection, socket, bytes) {
      connections.delete(connection);
      socket.pause();
      if (bytes.byteLength > 0) socket.unshift(bytes);
      nodeListener.call(server, socket);
      socket.resume();
    },
    forget(connection) {
      connections.delete(connection);
    },
  };
  server.on("connection", (socket: Socket) => {
    connections.add(new FrontConnection(front, socket));
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const connection of connections) connection.checkTimeouts(now);
  }, SWEEP_MS);
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
  return {
    closeIdleConnections() {
      closing = true;
      for (const connection of connections) connection.closeIfIdle();
    },
    closeAllConnections() {
      closing = true;
      for (const connection of connections) connection.socket.destroy();
    },
  };
}

interface FrontContext {
  readonly options: RouterFrontOptions;
  readonly server: Server;
  readonly closing: boolean;
  handOver(connection: FrontConnection, socket: Socket, bytes: Buffer): void;
  forget(connection: FrontConnection): void;
}

/** One caller's connection while the front holds it. */
class FrontConnection implements ExchangeConnection {
  /** Bytes read and not yet parsed (pipelined requests, held while a call is answered). */
  private pending: Buffer | null = null;
  private request: FrontRequest | null = null;
  private response: FrontResponse | null = null;
  /** When the connection last had nothing to do (opened, or answered a call), or when its call began. */
  private since = Date.now();
  /** Answered at least one call: the keep-alive timeout applies between calls, the head timeout before. */
  private answered = false;
  private ended = false;
  private readonly onData: (chunk: Buffer) => void;
  private readonly onClose: () => void;
  private readonly onEnd: () => void;

  constructor(
    private readonly front: FrontContext,
    readonly socket: Socket,
  ) {
    this.onData = this.received.bind(this);
    this.onClose = this.closed.bind(this);
    this.onEnd = this.callerEnded.bind(this);
    socket.on("data", this.onData);
    socket.on("end", this.onEnd);
    socket.on("close", this.onClose);
    socket.on("error", swallowSocketError);
  }

  get closing(): boolean {
    return this.front.closing;
  }

  get keepAliveSeconds(): number {
    return Math.floor(this.front.server.keepAliveTimeout / 1000);
  }

  exchangeDone(close: boolean): void {
    this.request = null;
    this.response = null;
    this.answered = true;
    this.since = Date.now();
    if (close || this.ended) {
      this.ended = true;
      this.socket.end();
      return;
    }
    if (this.socket.isPaused()) this.socket.resume();
    // Pipelined requests: the next one, after the code that ended this answer has run.
    if (this.pending) process.nextTick(() => this.next());
  }

  closeIfIdle(): void {
    if (!this.response) this.socket.destroy();
  }

  checkTimeouts(now: number): void {
    const { server } = this.front;
    const limit = this.request
      ? this.request.complete
        ? 0
        : server.requestTimeout
      : this.answered
        ? server.keepAliveTimeout
        : server.headersTimeout;
    if (limit > 0 && now - this.since > limit) this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    const { request } = this;
    if (request && !request.complete) {
      const rest = request.takeBody(chunk, 0);
      if (rest < chunk.byteLength) this.hold(chunk.subarray(rest));
      return;
    }
    if (this.response || this.ended) {
      this.hold(chunk);
      return;
    }
    this.parse(chunk);
  }

  /** Parses the next request from `bytes` (all of them unparsed) and answers it, or hands the connection over. */
  private parse(bytes: Buffer): void {
    const { options } = this.front;
    const head = parseRequestHead(bytes, 0, options.accepts);
    if (head === INCOMPLETE || head === NOT_MINE) {
      this.handOver(bytes);
      return;
    }
    const request = new FrontRequest(head, options.maxBodyBytes);
    const rest = request.takeBody(bytes, head.bodyStart);
    if (rest < bytes.byteLength) this.hold(bytes.subarray(rest));
    const response = new FrontResponse(this, request, head.close);
    this.request = request;
    this.response = response;
    this.since = Date.now();
    options.handle(request, response);
  }

  private next(): void {
    const { pending } = this;
    if (!pending || this.response || this.ended || this.socket.destroyed) return;
    this.pending = null;
    this.parse(pending);
  }

  private hold(bytes: Buffer): void {
    this.pending = this.pending ? Buffer.concat([this.pending, bytes]) : Buffer.from(bytes);
    if (this.pending.byteLength > MAX_PENDING_BYTES) this.socket.pause();
  }

  private handOver(bytes: Buffer): void {
    const { socket } = this;
    socket.off("data", this.onData);
    socket.off("end", this.onEnd);
    socket.off("close", this.onClose);
    socket.off("error", swallowSocketError);
    this.front.handOver(this, socket, bytes);
  }

  /** The caller sent FIN: as node:http, a call in progress is abandoned and the connection closed. */
  private callerEnded(): void {
    this.ended = true;
    if (this.response) this.socket.destroy();
    else this.socket.end();
  }

  private closed(): void {
    this.front.forget(this);
    this.request?.connectionClosed();
    this.response?.emitClose();
    this.request = null;
    this.response = null;
  }
}

/** A connection reset or write error: the socket closes next, which ends any call on it. */
function swallowSocketError(): void {}
