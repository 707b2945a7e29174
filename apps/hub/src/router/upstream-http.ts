import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { type AnswerEvents, AnswerParser } from "./response-parser.js";

/**
 * The router's HTTP/1.1 client: keep-alive connection pools to the providers, one per origin, each call an
 * exchange whose provider head, body chunks and end go straight to the router's handler (no streams, request
 * objects or header objects per call). Written for the router rather than taken from undici or node:http,
 * whose clients cost the router its benchmark bar: node:http's streams and agent bookkeeping, and undici's
 * yield to the event loop before every request on a reused connection (see bench/results/2026-11-27-router.md).
 * What undici's yield guards against (stray bytes a provider sent on an idle connection being read as the
 * next call's answer) is kept another way: a connection that fell idle is handed out again only after two
 * turns of the event loop, in which anything the provider sent on it is read (and the connection dropped).
 */

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

/** What a handler gets to pause, resume or abort its call. */
export interface UpstreamController {
  /** Ends the call now (its connection is closed); the handler's onResponseError gets `reason`. */
  abort(reason: Error): void;
  /** Stops reading the provider's body (back-pressure) until resume(). */
  pause(): void;
  resume(): void;
}

/** One call's handler: told of the call's start, the provider's head, each body chunk, the end or a failure. */
export interface UpstreamHandler {
  onRequestStart(controller: UpstreamController): void;
  /** The final head (informational 1xx heads are skipped): see AnswerEvents.onHead. */
  onResponseStart(
    controller: UpstreamController,
    status: number,
    headers: string[],
    bodyLength: number,
  ): void;
  onResponseData(controller: UpstreamController, chunk: Buffer): void;
  onResponseEnd(controller: UpstreamController): void;
  onResponseError(controller: UpstreamController, error: Error & { code?: string }): void;
}

/** The error code of a provider that did not send its head in time. */
export const HEADERS_TIMEOUT_CODE = "UPSTREAM_HEADERS_TIMEOUT";
/** The error code of a provider whose body went silent for longer than the call allows. */
export const BODY_TIMEOUT_CODE = "UPSTREAM_BODY_TIMEOUT";
/** The error code of a connection the provider closed before its answer was complete. */
export const CLOSED_CODE = "UPSTREAM_CLOSED";

/**
 * Whether an error means the provider's connection was cut before it answered (reset, or closed by the other
 * side): on a pooled keep-alive connection this is how a provider that closed it while idle shows, and the
 * call never reached it.
 */
export function isConnectionCut(error: Error & { code?: string }): boolean {
  return error.code === "ECONNRESET" || error.code === "EPIPE" || error.code === CLOSED_CODE;
}

class UpstreamTimeout extends Error {
  constructor(
    readonly code: string,
    what: string,
    ms: number,
  ) {
    super(`The provider's ${what} did not arrive within ${ms} ms.`);
    this.name = "UpstreamTimeout";
  }
}

class ConnectionClosed extends Error {
  readonly code = CLOSED_CODE;
  constructor() {
    super("The provider closed the connection before its answer was complete.");
    this.name = "ConnectionClosed";
  }
}

/** Connections kept per origin at most; calls beyond wait for one. */
const MAX_CONNECTIONS_PER_ORIGIN = 256;
/** How long an idle connection is kept when the provider gives no `Keep-Alive: timeout`. */
const DEFAULT_KEEP_ALIVE_MS = 4000;
/** Dropped this long before the provider's announced keep-alive timeout, so that it is never the one closing. */
const KEEP_ALIVE_MARGIN_MS = 1000;
/** How often calls' deadlines (head, body silence) and idle connections' keep-alive are checked. */
const SWEEP_MS = 250;
/** What a request line or header may not hold: a line break would start another header or request. */
const LINE_BREAK = /[\r\n\0]/;

/**
 * The event loop's turns, counted at the check phase of each turn in which a connection fell idle. A
 * connection that fell idle in one turn is handed out from the next one: the loop has polled its socket in
 * between, so bytes the provider sent on it before that poll are read first (and the connection dropped)
 * whenever they arrived before the call that would take it. The count goes on an unref'd immediate: it does
 * not make the loop poll without waiting, as a ref'd one would on every turn under load.
 */
let turn = 0;
let turnScheduled = false;
function tickTurn(): void {
  turnScheduled = false;
  turn++;
  for (const pool of poolsWithWaiters) pool.serveWaiters();
}
function scheduleTurn(): void {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(tickTurn).unref();
}
const poolsWithWaiters = new Set<OriginPool>();

/** One call: the handler's controller, and what the connection reports of the provider's answer. */
class Exchange implements UpstreamController, AnswerEvents {
  connection: Connection | undefined;
  private done = false;
  private headArrived = false;
  paused = false;
  /** When the call was written, then when the provider last sent a byte of it (performance.now()). */
  lastActivity = 0;

  constructor(
    readonly call: UpstreamCall,
    private readonly handler: UpstreamHandler,
  ) {}

  get finished(): boolean {
    return this.done;
  }

  /** Whether the provider sent any of its answer. */
  get answered(): boolean {
    return this.headArrived || (this.connection?.parser.started ?? false);
  }

  abort(reason: Error): void {
    this.fail(reason);
  }

  pause(): void {
    this.paused = true;
    this.connection?.socket.pause();
  }

  resume(): void {
    this.paused = false;
    this.lastActivity = performance.now();
    this.connection?.socket.resume();
  }

  onHead(status: number, headers: string[], bodyLength: number): void {
    this.headArrived = true;
    this.handler.onResponseStart(this, status, headers, bodyLength);
  }

  onBody(chunk: Buffer): void {
    if (!this.done) this.handler.onResponseData(this, chunk);
  }

  onEnd(reusable: boolean): void {
    if (this.done) return;
    this.done = true;
    const connection = this.connection;
    this.connection = undefined;
    connection?.release(reusable);
    this.handler.onResponseEnd(this);
  }

  /** Ends the call with an error (reported once; nothing after). */
  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    const connection = this.connection;
    this.connection = undefined;
    connection?.destroy();
    this.handler.onResponseError(this, error);
  }

  /** Called by the sweep: fails a call whose provider has been silent for too long. */
  checkDeadline(now: number): void {
    if (this.paused) return;
    if (!this.headArrived) {
      if (now - this.lastActivity >= this.call.headersTimeoutMs) {
        this.fail(new UpstreamTimeout(HEADERS_TIMEOUT_CODE, "head", this.call.headersTimeoutMs));
      }
    } else if (now - this.lastActivity >= this.call.bodyTimeoutMs) {
      this.fail(new UpstreamTimeout(BODY_TIMEOUT_CODE, "next body bytes", this.call.bodyTimeoutMs));
    }
  }
}

/** One keep-alive connection to a provider: at most one call on it at a time. */
class Connection {
  readonly parser: AnswerParser;
  exchange: Exchange | undefined;
  /** The turn it fell idle in (see tickTurn), and when. */
  idleTurn = 0;
  idleSince = 0;
  keepAliveMs = DEFAULT_KEEP_ALIVE_MS;
  private closed = false;

  constructor(
    readonly socket: Socket,
    private readonly pool: OriginPool,
  ) {
    this.parser = new AnswerParser(this.answerEvents());
    socket.setNoDelay(true);
    socket.on("data", (data: Buffer) => this.read(data));
    socket.on("end", () => this.ended());
    socket.on("error", (error: Error) => this.failed(error));
    socket.on("close", () => this.failed(new ConnectionClosed()));
  }

  /** The parser reports to whichever call is on the connection now. */
  private answerEvents(): AnswerEvents {
    return {
      onHead: (status, headers, bodyLength) => this.exchange?.onHead(status, headers, bodyLength),
      onBody: (chunk) => this.exchange?.onBody(chunk),
      onEnd: (reusable) => this.exchange?.onEnd(reusable),
    };
  }

  /** Writes a call's request on the connection. */
  start(exchange: Exchange, head: string): void {
    this.exchange = exchange;
    exchange.connection = this;
    exchange.lastActivity = performance.now();
    this.parser.expect(exchange.call.method);
    const { body } = exchange.call;
    if (body && body.length > 0) {
      this.socket.cork();
      this.socket.write(head, "latin1");
      this.socket.write(body);
      this.socket.uncork();
    } else {
      this.socket.write(head, "latin1");
    }
  }

  private read(data: Buffer): void {
    const exchange = this.exchange;
    if (!exchange) {
      // Bytes on an idle connection answer no call: whatever they are, the connection is not trusted again.
      this.destroy();
      return;
    }
    if (!exchange.paused) exchange.lastActivity = performance.now();
    try {
      this.parser.feed(data);
    } catch (error) {
      exchange.fail(error as Error);
    }
  }

  private ended(): void {
    const exchange = this.exchange;
    if (exchange && !this.parser.closed()) exchange.fail(new ConnectionClosed());
    this.destroy();
  }

  private failed(error: Error): void {
    this.exchange?.fail(error);
    this.destroy();
  }

  /** The call on it is complete: back to the pool's idle connections, or closed. */
  release(reusable: boolean): void {
    this.exchange = undefined;
    if (!reusable || this.closed) {
      this.destroy();
      return;
    }
    const hint = this.parser.keepAliveHintMs;
    this.keepAliveMs = hint >= 0 ? Math.max(0, hint - KEEP_ALIVE_MARGIN_MS) : DEFAULT_KEEP_ALIVE_MS;
    if (this.keepAliveMs === 0) {
      this.destroy();
      return;
    }
    this.idleTurn = turn;
    this.idleSince = performance.now();
    scheduleTurn();
    this.pool.idle.push(this);
  }

  /** Closes the connection and forgets it; a call still on it fails. */
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.parser.stop();
    this.socket.destroy();
    this.pool.forget(this);
    const exchange = this.exchange;
    this.exchange = undefined;
    exchange?.fail(new ConnectionClosed());
  }
}

/** The connections to one origin: idle ones (most recently used last), how many are open, calls waiting. */
class OriginPool {
  readonly idle: Connection[] = [];
  /**
   * Every open connection, for the sweep to check the deadline of the call on each (no registry of calls: a
   * Set of the calls in flight, added to and deleted from per call, made V8 promote 3.7 KB per call).
   */
  private readonly connections: Connection[] = [];
  private readonly waiting: { exchange: Exchange; head: string }[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;

  constructor(origin: string) {
    const url = new URL(origin);
    this.tls = url.protocol === "https:";
    this.host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    this.port = url.port ? Number(url.port) : this.tls ? 443 : 80;
  }

  send(exchange: Exchange, head: string): void {
    const connection = this.reusable();
    if (connection) {
      connection.start(exchange, head);
      return;
    }
    // A connection that fell idle in this turn is not handed out yet (see tickTurn): wait for the next turn
    // rather than open another, unless none is idle.
    if (this.idle.length === 0 && this.connections.length < MAX_CONNECTIONS_PER_ORIGIN) {
      this.connect().start(exchange, head);
      return;
    }
    this.waiting.push({ exchange, head });
    poolsWithWaiters.add(this);
    scheduleTurn();
  }

  /** Hands idle connections that became reusable to waiting calls (each turn while calls wait). */
  serveWaiters(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (next.exchange.finished) {
        this.waiting.shift();
        continue;
      }
      const connection =
        this.reusable() ??
        (this.idle.length === 0 && this.connections.length < MAX_CONNECTIONS_PER_ORIGIN
          ? this.connect()
          : undefined);
      if (!connection) return;
      this.waiting.shift();
      connection.start(next.exchange, next.head);
    }
    poolsWithWaiters.delete(this);
  }

  /** The most recently used idle connection old enough to be trusted and not past its keep-alive. */
  private reusable(): Connection | undefined {
    const now = performance.now();
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const connection = this.idle[i]!;
      if (now - connection.idleSince >= connection.keepAliveMs) {
        connection.destroy();
        continue;
      }
      if (connection.idleTurn === turn) continue;
      this.idle.splice(i, 1);
      return connection;
    }
    return undefined;
  }

  private connect(): Connection {
    const socket = this.tls
      ? connectTls({
          host: this.host,
          port: this.port,
          servername: isIP(this.host) ? undefined : this.host,
          ALPNProtocols: ["http/1.1"],
        })
      : connectTcp({ host: this.host, port: this.port });
    const connection = new Connection(socket, this);
    this.connections.push(connection);
    return connection;
  }

  forget(connection: Connection): void {
    const open = this.connections.indexOf(connection);
    if (open !== -1) this.connections.splice(open, 1);
    const at = this.idle.indexOf(connection);
    if (at !== -1) this.idle.splice(at, 1);
    // A call waiting for a connection may open one now.
    if (this.waiting.length > 0) {
      poolsWithWaiters.add(this);
      scheduleTurn();
    }
  }

  /** Fails calls past their deadline and closes idle connections past their keep-alive. */
  sweep(now: number): void {
    for (const { exchange } of this.waiting) exchange.checkDeadline(now);
    for (const connection of this.connections.slice()) {
      if (connection.exchange) connection.exchange.checkDeadline(now);
      else if (now - connection.idleSince >= connection.keepAliveMs) connection.destroy();
    }
  }

  get empty(): boolean {
    return this.connections.length === 0 && this.waiting.length === 0;
  }
}

const pools = new Map<string, OriginPool>();
let sweepTimer: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = performance.now();
  for (const [origin, pool] of pools) {
    pool.sweep(now);
    if (pool.empty) pools.delete(origin);
  }
  if (pools.size === 0) {
    clearInterval(sweepTimer);
    sweepTimer = undefined;
  }
  if (poolsWithWaiters.size > 0) scheduleTurn();
}

/** The request head: request line, headers, the empty line. */
function requestHead(call: UpstreamCall): string {
  if (LINE_BREAK.test(call.method) || LINE_BREAK.test(call.path)) {
    throw new TypeError("A request line may not hold a line break.");
  }
  let head = `${call.method} ${call.path} HTTP/1.1\r\n`;
  const { headers } = call;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (LINE_BREAK.test(value) || LINE_BREAK.test(name)) {
      throw new TypeError(`Header ${name.slice(0, 40)} may not hold a line break.`);
    }
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n`;
}

/** Starts a call on the keep-alive pool of the target's origin; `handler` sees the rest. */
export function dispatchUpstream(target: UpstreamTarget, call: UpstreamCall, handler: UpstreamHandler): void {
  const exchange = new Exchange(call, handler);
  handler.onRequestStart(exchange);
  if (exchange.finished) return;
  let head: string;
  try {
    head = requestHead(call);
  } catch (error) {
    exchange.fail(error as Error);
    return;
  }
  let pool = pools.get(target.origin);
  if (!pool) {
    pool = new OriginPool(target.origin);
    pools.set(target.origin, pool);
  }
  exchange.lastActivity = performance.now();
  sweepTimer ??= setInterval(sweep, SWEEP_MS).unref();
  pool.send(exchange, head);
}
