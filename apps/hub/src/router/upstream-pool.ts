import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { type AnswerEvents, AnswerParser } from "./response-parser.js";

/**
 * The keep-alive connections of the router's HTTP/1.1 client (upstream-http.ts), one pool per provider origin:
 * which connection a call goes on, when an idle one may be used again, and the sweep that enforces the calls'
 * deadlines and the connections' keep-alive.
 */

/** What a connection needs of the call on it (upstream-http.ts's Exchange). */
export interface PooledCall extends AnswerEvents {
  readonly call: { readonly method: string; readonly body: Buffer | undefined };
  connection: Connection | undefined;
  paused: boolean;
  /** When the call was written, then when the provider last sent a byte of it (performance.now()). */
  lastActivity: number;
  /** Whether the call went out on a connection an earlier call had used (see Connection.start). */
  reusedConnection: boolean;
  readonly finished: boolean;
  /** Ends the call with an error (reported once; nothing after). */
  fail(error: Error): void;
  /** Fails the call when its provider has been silent for longer than it allows. */
  checkDeadline(now: number): void;
}

/** The error code of a connection the provider closed before its answer was complete. */
export const CLOSED_CODE = "UPSTREAM_CLOSED";

/** The provider closed the connection (or it was closed) before the answer on it was complete. */
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

/** One keep-alive connection to a provider: at most one call on it at a time. */
export class Connection {
  readonly parser: AnswerParser;
  exchange: PooledCall | undefined;
  /** The turn it fell idle in (see tickTurn), and when. */
  idleTurn = 0;
  /** How many calls were written on it. */
  private calls = 0;
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
  start(exchange: PooledCall, head: string): void {
    this.exchange = exchange;
    exchange.connection = this;
    exchange.lastActivity = performance.now();
    exchange.reusedConnection = this.calls++ > 0;
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
    // A call that ended while its caller held it back leaves the socket paused: the next call must read.
    if (this.socket.isPaused()) this.socket.resume();
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
  private readonly waiting: { exchange: PooledCall; head: string }[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;

  constructor(origin: string) {
    const url = new URL(origin);
    this.tls = url.protocol === "https:";
    this.host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    this.port = url.port ? Number(url.port) : this.tls ? 443 : 80;
  }

  send(exchange: PooledCall, head: string): void {
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

/** Sends a call's request on a connection of the origin's pool (at once, or when one is free). */
export function sendOnPool(origin: string, exchange: PooledCall, head: string): void {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new OriginPool(origin);
    pools.set(origin, pool);
  }
  exchange.lastActivity = performance.now();
  sweepTimer ??= setInterval(sweep, SWEEP_MS).unref();
  pool.send(exchange, head);
}
