/**
 * An incremental parser of the HTTP/1.1 answers a provider sends on one connection: the head (informational
 * 1xx heads skipped), then the body framed by Content-Length, chunked transfer coding or the connection's end.
 * Strict where a lenient reading could let one answer's bytes be taken for another's (two framings at once,
 * conflicting lengths, bytes after the end of an answer, malformed lines): those are protocol errors, and the
 * connection is not used again.
 */

/** What a parser reports, in order: one head, body chunks (slices of what was fed, not copies), one end. */
export interface AnswerEvents {
  /**
   * The final head: its status, its headers as a flat `[name, value, ...]` list of lower-case names in the
   * order sent, and the body's length (-1 when it is chunked or runs to the connection's end).
   */
  onHead(status: number, headers: string[], bodyLength: number): void;
  onBody(chunk: Buffer): void;
  /** The answer is complete; `reusable` says whether the connection may carry another call. */
  onEnd(reusable: boolean): void;
}

/** A provider's bytes that are not a well-formed HTTP/1.1 answer. */
export class ProviderProtocolError extends Error {
  readonly code = "UPSTREAM_PROTOCOL_ERROR";
  /** What was wrong, in words of ours (never the provider's bytes). */
  constructor(readonly detail: string) {
    super(`The provider's answer is not valid HTTP/1.1: ${detail}.`);
    this.name = "ProviderProtocolError";
  }
}

/** The largest head (status line and headers) read; a larger one is refused. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The longest chunk-size line (size and extensions) or trailer section read. */
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
const MAX_TRAILER_BYTES = 16 * 1024;

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\r\n]*)?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters other than tab, which no header value may hold (node:http refuses to send them on). */
const BAD_VALUE_CHARACTER = /[\0-\x08\x0a-\x1f\x7f]/;
const HEX_SIZE = /^[0-9A-Fa-f]{1,13}$/;
const KEEP_ALIVE_TIMEOUT = /(?:^|[\s,])timeout=(\d+)/i;
const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");

type State =
  | "idle"
  | "head"
  | "length"
  | "chunk-size"
  | "chunk-data"
  | "chunk-end"
  | "trailers"
  | "to-close"
  | "done";

export class AnswerParser {
  private state: State = "idle";
  /** Bytes of an unfinished head, chunk-size line or trailer section, kept until the rest arrives. */
  private partial: Buffer | undefined;
  private remaining = 0;
  private noBody = false;
  private reusable = true;
  /** Set when the events' receiver stops listening (the call was abandoned): nothing more is reported. */
  private stopped = false;
  /** The provider's `Keep-Alive: timeout=N` of the last answer, in ms, or -1. */
  keepAliveHintMs = -1;

  constructor(private readonly events: AnswerEvents) {}

  /** Expects the answer to one request; `method` HEAD means it has no body whatever its head says. */
  expect(method: string): void {
    this.state = "head";
    this.partial = undefined;
    this.noBody = method === "HEAD";
    this.reusable = true;
    this.stopped = false;
  }

  /** Stops reporting: the rest of what is being fed is dropped. */
  stop(): void {
    this.stopped = true;
  }

  /** Whether the parser waits for nothing: no answer expected, or the last one complete. */
  get idle(): boolean {
    return this.state === "idle" || this.state === "done";
  }

  /** Reads bytes from the connection; throws ProviderProtocolError on a malformed answer. */
  feed(data: Buffer): void {
    let at = 0;
    while (at < data.length && !this.stopped) {
      switch (this.state) {
        case "idle":
        case "done":
          throw new ProviderProtocolError("bytes arrived when no answer was expected");
        case "head":
          at = this.readHead(data, at);
          break;
        case "length":
        case "chunk-data":
          at = this.readBody(data, at);
          break;
        case "chunk-size":
          at = this.readChunkSize(data, at);
          break;
        case "chunk-end":
          at = this.readChunkEnd(data, at);
          break;
        case "trailers":
          at = this.readTrailers(data, at);
          break;
        case "to-close":
          this.events.onBody(at === 0 ? data : data.subarray(at));
          at = data.length;
          break;
      }
    }
  }

  /**
   * The connection's end: completes an answer that runs to it (true). False when an answer was expected and
   * is incomplete (the caller decides whether nothing or part of it arrived).
   */
  closed(): boolean {
    if (this.state === "to-close") {
      this.state = "done";
      if (!this.stopped) this.events.onEnd(false);
      return true;
    }
    return this.idle;
  }

  /** Passes on the body bytes of a length, or of a chunk, that are in `data`. */
  private readBody(data: Buffer, at: number): number {
    const take = Math.min(this.remaining, data.length - at);
    this.remaining -= take;
    this.events.onBody(at === 0 && take === data.length ? data : data.subarray(at, at + take));
    const next = at + take;
    if (this.remaining === 0) {
      if (this.state === "length") this.end(data.length - next);
      else this.state = "chunk-end";
    }
    return next;
  }

  private readHead(data: Buffer, at: number): number {
    const read = this.readUntil(data, at, HEAD_END, MAX_HEAD_BYTES, "the head is too large");
    if (typeof read === "number") return read;
    this.parseHead(read.text);
    // A head without a body (204, 304, an answer to HEAD, Content-Length: 0) is the whole answer.
    if (this.state === "done") this.end(data.length - read.next);
    return read.next;
  }

  private parseHead(head: string): void {
    const lines = head.split("\r\n");
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) throw new ProviderProtocolError("the status line is malformed");
    const code = Number(status[2]);
    const headers: string[] = [];
    let contentLength = -1;
    let transferEncoding: string | undefined;
    let connection = "";
    this.keepAliveHintMs = -1;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(":");
      if (colon <= 0) throw new ProviderProtocolError("a header line has no name");
      const name = line.slice(0, colon);
      if (!TOKEN.test(name)) throw new ProviderProtocolError("a header name is not a token");
      let from = colon + 1;
      let to = line.length;
      while (from < to && (line.charCodeAt(from) === 32 || line.charCodeAt(from) === 9)) from++;
      while (to > from && (line.charCodeAt(to - 1) === 32 || line.charCodeAt(to - 1) === 9)) to--;
      const value = line.slice(from, to);
      if (BAD_VALUE_CHARACTER.test(value))
        throw new ProviderProtocolError("a header value holds a control character");
      const lower = name.toLowerCase();
      if (lower === "content-length") {
        if (!/^\d{1,15}$/.test(value)) throw new ProviderProtocolError("Content-Length is not a number");
        const length = Number(value);
        if (contentLength !== -1 && contentLength !== length) {
          throw new ProviderProtocolError("two different Content-Length values");
        }
        contentLength = length;
      } else if (lower === "transfer-encoding") {
        transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
      } else if (lower === "connection") {
        connection += `${value.toLowerCase()},`;
      } else if (lower === "keep-alive") {
        const hint = KEEP_ALIVE_TIMEOUT.exec(value);
        if (hint) this.keepAliveHintMs = Number(hint[1]) * 1000;
      }
      headers.push(lower, value);
    }
    if (code < 200) {
      // An informational head (100 Continue, 103 Early Hints): the answer's own head follows.
      if (code === 101) throw new ProviderProtocolError("the provider switched protocols");
      return;
    }
    if (transferEncoding !== undefined && contentLength !== -1) {
      throw new ProviderProtocolError("both Transfer-Encoding and Content-Length are set");
    }
    const http10 = status[1] === "0";
    if (http10 ? !/(?:^|[\s,])keep-alive,/.test(connection) : /(?:^|[\s,])close,/.test(connection)) {
      this.reusable = false;
    }
    const bodyless = this.noBody || code === 204 || code === 304;
    let bodyLength = contentLength;
    if (bodyless) {
      this.state = "done";
    } else if (transferEncoding !== undefined) {
      // Only chunked framing marks the end; any other last coding runs to the connection's end.
      if (/(?:^|,)\s*chunked\s*$/i.test(transferEncoding)) this.state = "chunk-size";
      else this.state = "to-close";
      bodyLength = -1;
    } else if (contentLength >= 0) {
      this.remaining = contentLength;
      this.state = contentLength === 0 ? "done" : "length";
    } else {
      this.state = "to-close";
    }
    if (this.state === "to-close") this.reusable = false;
    this.events.onHead(code, headers, bodyless ? 0 : bodyLength);
  }

  private readLine(data: Buffer, at: number, limit: number): { text: string; next: number } | number {
    return this.readUntil(data, at, CRLF, limit, "a chunk line is too long");
  }

  /**
   * The text before `delimiter` (at most `limit` bytes) and where `data` goes on after it; or, when the
   * delimiter has not arrived yet, `data.length` with what was read kept for the next call.
   */
  private readUntil(
    data: Buffer,
    at: number,
    delimiter: Buffer,
    limit: number,
    tooLong: string,
  ): { text: string; next: number } | number {
    const kept = this.partial;
    const buffer = kept ? Buffer.concat([kept, data.subarray(at)]) : data;
    const start = kept ? 0 : at;
    const end = buffer.indexOf(delimiter, start);
    if (end === -1) {
      // What is kept may end with the start of the delimiter.
      if (buffer.length - start > limit + delimiter.length - 1) throw new ProviderProtocolError(tooLong);
      this.partial = start === 0 ? buffer : buffer.subarray(start);
      return data.length;
    }
    if (end - start > limit) throw new ProviderProtocolError(tooLong);
    this.partial = undefined;
    const next = kept ? end + delimiter.length - kept.length + at : end + delimiter.length;
    return { text: buffer.toString("latin1", start, end), next };
  }

  private readChunkSize(data: Buffer, at: number): number {
    const read = this.readLine(data, at, MAX_CHUNK_LINE_BYTES);
    if (typeof read === "number") return read;
    const semicolon = read.text.indexOf(";");
    const size = (semicolon === -1 ? read.text : read.text.slice(0, semicolon)).trim();
    if (!HEX_SIZE.test(size)) throw new ProviderProtocolError("a chunk size is malformed");
    this.remaining = Number.parseInt(size, 16);
    this.state = this.remaining === 0 ? "trailers" : "chunk-data";
    return read.next;
  }

  private readChunkEnd(data: Buffer, at: number): number {
    const read = this.readLine(data, at, 0);
    if (typeof read === "number") return read;
    this.state = "chunk-size";
    return read.next;
  }

  private readTrailers(data: Buffer, at: number): number {
    // Trailer fields are read and dropped (the router passes none on): the answer ends at an empty line.
    for (;;) {
      const read = this.readLine(data, at, MAX_TRAILER_BYTES);
      if (typeof read === "number") return read;
      at = read.next;
      if (read.text === "") {
        this.end(data.length - at);
        return at;
      }
    }
  }

  private end(bytesAfter: number): void {
    this.state = "done";
    // Bytes after the end of an answer belong to no call: the connection is not used again.
    const reusable = this.reusable && bytesAfter === 0;
    if (!this.stopped) this.events.onEnd(reusable);
    if (bytesAfter > 0) this.stopped = true;
  }
}
