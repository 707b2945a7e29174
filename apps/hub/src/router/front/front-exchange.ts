import { EventEmitter } from "node:events";
import { type IncomingHttpHeaders, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ClientAbortedError, PayloadTooLargeError } from "../../errors.js";
import { frameChunk } from "../chunk-frame.js";
import type { RequestHead } from "./request-head.js";

/** What an exchange needs of the connection it runs on (front-connection.ts). */
export interface ExchangeConnection {
  readonly socket: Socket;
  /** The server is closing: this answer is the connection's last. */
  readonly closing: boolean;
  /** How long an idle connection is kept open, in seconds (the answer's `Keep-Alive: timeout=`). */
  readonly keepAliveSeconds: number;
  /** The answer is written: the connection goes on with the next request, or is closed (`close`). */
  exchangeDone(close: boolean): void;
}

/** A request the router front parsed itself: the parts of IncomingMessage the router reads, and its body. */
export class FrontRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly contentLength: number;
  /** The whole body has arrived. */
  complete: boolean;
  private readonly chunks: Buffer[] = [];
  private received = 0;
  /** A body over the limit is counted as it arrives but not kept: its call is refused with a 413. */
  private readonly keepsBody: boolean;
  private waiting: { resolve(body: Buffer): void; reject(error: Error): void } | undefined;

  constructor(head: RequestHead, maxBodyBytes: number) {
    this.method = head.method;
    this.url = head.url;
    this.headers = head.headers;
    this.contentLength = head.contentLength;
    this.complete = head.contentLength === 0;
    this.keepsBody = head.contentLength <= maxBodyBytes;
  }

  /** Takes this request's body bytes from `bytes` at `from`; returns where the bytes after them start. */
  takeBody(bytes: Buffer, from: number): number {
    const taken = Math.min(this.contentLength - this.received, bytes.byteLength - from);
    if (taken <= 0) return from;
    if (this.keepsBody) this.chunks.push(bytes.subarray(from, from + taken));
    this.received += taken;
    if (this.received === this.contentLength) {
      this.complete = true;
      this.waiting?.resolve(this.body());
      this.waiting = undefined;
    }
    return from + taken;
  }

  /** The body, once whole; PayloadTooLargeError at once for one declared longer than `maxBytes`. */
  readBody(maxBytes: number): Promise<Buffer> {
    if (this.contentLength > maxBytes || !this.keepsBody) {
      return Promise.reject(new PayloadTooLargeError(maxBytes));
    }
    if (this.complete) return Promise.resolve(this.body());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The caller's connection closed: a body still awaited never comes. */
  connectionClosed(): void {
    this.waiting?.reject(new ClientAbortedError());
    this.waiting = undefined;
  }

  private body(): Buffer {
    const { chunks } = this;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received);
  }
}

/** Statuses whose answers have no body (RFC 9110 6.4.1). */
function isBodyless(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** Printable ASCII, tab and obs-text: what node:http accepts in a header value (no CR, LF or NUL). */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const LAST_CHUNK = "0\r\n\r\n";

/** The `Date` header's value, made once per second. */
let dateSecond = -1;
let dateValue = "";
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(now).toUTCString();
  }
  return dateValue;
}

/**
 * The answer to a FrontRequest, written straight to the caller's socket: the parts of ServerResponse the
 * router uses (router/caller-exchange.ts), with node:http's framing (Content-Length when known, chunks
 * otherwise), `Date`, `Connection`/`Keep-Alive` headers and events ("close" once the answer is written or
 * the connection is gone; "drain" after a write that filled the socket's buffer).
 */
export class FrontResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  chunkedEncoding = false;
  readonly socket: Socket;
  /** writeHead gave the head (sent with the first write). */
  private headGiven = false;
  private headers: string[] = [];
  private hasLength = false;
  private closeAfter: boolean;
  private closed = false;
  private drainAwaited = false;

  constructor(
    private readonly connection: ExchangeConnection,
    private readonly request: FrontRequest,
    closeAfter: boolean,
  ) {
    super();
    this.socket = connection.socket;
    this.closeAfter = closeAfter;
  }

  writeHead(status: number, headers: string[]): this {
    if (this.headGiven) throw new Error("The answer's head was already written.");
    this.statusCode = status;
    this.headers = headers;
    this.headGiven = true;
    return this;
  }

  /** Sends the head now (a streamed answer's, before its first bytes). */
  flushHeaders(): void {
    if (this.headersSent || this.destroyed) return;
    this.socket.write(this.headText(undefined), "latin1");
  }

  write(data: Buffer | string): boolean {
    if (this.destroyed || this.writableFinished) return false;
    let written: boolean;
    if (!this.headersSent) {
      const head = this.headText(undefined);
      this.socket.cork();
      this.socket.write(head, "latin1");
      written = this.writeBody(data);
      this.socket.uncork();
    } else written = this.writeBody(data);
    if (!written && !this.drainAwaited) {
      this.drainAwaited = true;
      this.socket.once("drain", () => {
        this.drainAwaited = false;
        this.emit("drain");
      });
    }
    return written;
  }

  end(data?: Buffer | string): this {
    if (this.destroyed || this.writableFinished) return this;
    const { socket } = this;
    if (!this.headersSent) {
      // The whole answer at once: framed by its length, head and body in one write.
      const head = this.headText(data === undefined ? 0 : Buffer.byteLength(data));
      if (data === undefined || isBodyless(this.statusCode)) socket.write(head, "latin1");
      else if (typeof data === "string") socket.write(head + data);
      else {
        socket.cork();
        socket.write(head, "latin1");
        socket.write(data);
        socket.uncork();
      }
    } else {
      if (data !== undefined) this.writeBody(data);
      if (this.chunkedEncoding) socket.write(LAST_CHUNK, "latin1");
    }
    // As node:http's end(): whatever corked the socket for this answer, it leaves now.
    while (socket.writableCorked > 0) socket.uncork();
    this.writableFinished = true;
    this.connection.exchangeDone(this.closeAfter);
    queueMicrotask(() => this.emitClose());
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.socket.destroy();
    return this;
  }

  /** The connection is gone (or this answer is written): "close", once. */
  emitClose(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.writableFinished) this.destroyed = true;
    this.emit("close");
  }

  private writeBody(data: Buffer | string): boolean {
    if (!this.chunkedEncoding) return this.socket.write(data);
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    // An empty chunk would read as the end of the answer.
    return bytes.byteLength === 0 || this.socket.write(frameChunk(bytes));
  }

  /**
   * The head as sent: the status line, the headers given (checked as node:http checks them), then the
   * framing and connection headers. `bodyLength` is the length of a body sent whole with it.
   */
  private headText(bodyLength: number | undefined): string {
    if (!this.headGiven) this.writeHead(this.statusCode, []);
    const { statusCode, headers } = this;
    // An unread body is not skipped: the connection closes after this answer, as node:http's own does.
    if (!this.request.complete || this.connection.closing) this.closeAfter = true;
    let head = `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? "unknown"}\r\n`;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i]!;
      const value = headers[i + 1]!;
      if (INVALID_VALUE.test(value)) {
        throw new TypeError(`Invalid character in the value of the answer's "${name}" header.`);
      }
      const lower = name.length === 14 || name.length === 10 ? name.toLowerCase() : "";
      if (lower === "content-length") this.hasLength = true;
      else if (lower === "connection") {
        if (value.toLowerCase() === "close") this.closeAfter = true;
        continue;
      }
      head += `${name}: ${value}\r\n`;
    }
    head += `date: ${httpDate()}\r\n`;
    head += this.closeAfter
      ? "connection: close\r\n"
      : `connection: keep-alive\r\nkeep-alive: timeout=${this.connection.keepAliveSeconds}\r\n`;
    if (!this.hasLength && !isBodyless(statusCode)) {
      if (bodyLength === undefined) {
        this.chunkedEncoding = true;
        head += "transfer-encoding: chunked\r\n";
      } else head += `content-length: ${bodyLength}\r\n`;
    }
    this.headersSent = true;
    return `${head}\r\n`;
  }
}
