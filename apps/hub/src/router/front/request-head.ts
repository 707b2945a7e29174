import type { IncomingHttpHeaders } from "node:http";

/**
 * The head of a request the router's front takes itself. Anything this parser is not sure of is not parsed
 * at all: the connection is handed to node:http (llhttp), which then judges it and answers it. So the front
 * takes only a strict subset of HTTP/1.1, where the two parsers cannot disagree on where a message ends:
 * `GET|POST <plain target> HTTP/1.1`, CRLF line ends, token header names each present once, printable ASCII
 * values, a Host header, a body framed by a plain Content-Length (or none), no Transfer-Encoding, Expect or
 * Upgrade.
 */
export interface RequestHead {
  method: "GET" | "POST";
  /** The request target as sent (origin form). */
  url: string;
  /** Lower-case names, as node:http gives them; no prototype, so any name is a plain key. */
  headers: IncomingHttpHeaders;
  /** The body's length in bytes (0 without Content-Length). */
  contentLength: number;
  /** The caller asked to close the connection after this exchange (`Connection: close`). */
  close: boolean;
  /** Where the body starts in the buffer parsed: just after the head's blank line. */
  bodyStart: number;
}

/** The head is not whole in the bytes given (the front then hands the connection to node:http). */
export const INCOMPLETE = "incomplete";
/** Not a request the front takes, or not one it is sure how to read: for node:http. */
export const NOT_MINE = "not mine";

/** node:http's default limit on a request head (`--max-http-header-size`): a longer one is its 431. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** More header lines than any client sends: such a request is left to node:http. */
const MAX_HEADER_LINES = 100;
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
/** A Content-Length: digits only, at most 15 (exact as a JS number). */
const CONTENT_LENGTH = /^\d{1,15}$/;

/** tchar (RFC 9110 5.6.2): the bytes a header name is made of. */
const TOKEN = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TOKEN[c.charCodeAt(0)] = 1;
}

/**
 * Reads a request head at `start` of `bytes`. `accepts(method, target)` says which requests the front takes
 * (the router's paths): for any other, NOT_MINE before the headers are read.
 */
export function parseRequestHead(
  bytes: Buffer,
  start: number,
  accepts: (method: string, target: string) => boolean,
): RequestHead | typeof INCOMPLETE | typeof NOT_MINE {
  const headEnd = bytes.indexOf(HEAD_END, start);
  if (headEnd === -1 || headEnd - start > MAX_HEAD_BYTES) {
    return bytes.byteLength - start > MAX_HEAD_BYTES ? NOT_MINE : INCOMPLETE;
  }
  // One byte per char, as sent: anything outside printable ASCII is refused below, never reinterpreted.
  const head = bytes.toString("latin1", start, headEnd);
  const lineEnd = head.indexOf("\r\n");
  const requestLine = lineEnd === -1 ? head : head.slice(0, lineEnd);
  const methodEnd = requestLine.indexOf(" ");
  const targetEnd = requestLine.lastIndexOf(" ");
  if (methodEnd <= 0 || targetEnd === methodEnd || requestLine.slice(targetEnd + 1) !== "HTTP/1.1") {
    return NOT_MINE;
  }
  const method = requestLine.slice(0, methodEnd);
  if (method !== "GET" && method !== "POST") return NOT_MINE;
  const url = requestLine.slice(methodEnd + 1, targetEnd);
  if (!isVisibleAscii(url) || !accepts(method, url)) return NOT_MINE;
  const headers: IncomingHttpHeaders = Object.create(null);
  let contentLength = 0;
  let close = false;
  let lines = 0;
  for (let at = lineEnd + 2; lineEnd !== -1 && at < head.length; ) {
    if (++lines > MAX_HEADER_LINES) return NOT_MINE;
    let end = head.indexOf("\r\n", at);
    if (end === -1) end = head.length;
    const colon = head.indexOf(":", at);
    if (colon <= at || colon > end || !isToken(head, at, colon)) return NOT_MINE;
    const name = head.slice(at, colon).toLowerCase();
    const value = trimmedValue(head, colon + 1, end);
    at = end + 2;
    if (value === undefined || headers[name] !== undefined) return NOT_MINE;
    headers[name] = value;
    switch (name) {
      case "content-length":
        // node:http refuses a tab after the digits: one anywhere in the value is left to it.
        if (!CONTENT_LENGTH.test(value) || head.slice(colon, end).includes("\t")) return NOT_MINE;
        contentLength = Number(value);
        break;
      case "connection": {
        const token = value.toLowerCase();
        if (token === "close") close = true;
        else if (token !== "keep-alive") return NOT_MINE;
        break;
      }
      case "transfer-encoding":
      case "expect":
      case "upgrade":
        return NOT_MINE;
    }
  }
  // node:http (with the hub's own answer) says what a request without Host gets.
  if (headers.host === undefined) return NOT_MINE;
  return { method, url, headers, contentLength, close, bodyStart: headEnd + HEAD_END.byteLength };
}

function isVisibleAscii(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

function isToken(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || TOKEN[c] !== 1) return false;
  }
  return true;
}

/**
 * A header value without the spaces and tabs around it, or undefined when it holds anything but printable
 * ASCII, spaces and tabs (a bare CR or LF, a control character, a non-ASCII byte).
 */
function trimmedValue(text: string, from: number, to: number): string | undefined {
  let start = from;
  let end = to;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c >= 0x7f) return undefined;
  }
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}
