import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import {
  ClientAbortedError,
  InvalidInputError,
  InvalidJsonError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../errors.js";
import { isObject } from "../is-object.js";

/**
 * Reads the request body into memory, refusing it as soon as it passes `maxBytes` (checked against
 * Content-Length first, then while reading, so a lying or missing header cannot get past the limit).
 */
export async function readBodyBytes(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  // On Node, read the request stream itself: much cheaper than its web-stream wrapper.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && typeof incoming.on === "function") return readNodeBody(incoming, maxBytes);
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new ClientAbortedError();
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a node:http request body, refusing it as soon as it passes `maxBytes` (Content-Length first, then
 * while reading). Plain events rather than an async iterator: this runs on every router call.
 */
export function readNodeBody(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(incoming.headers["content-length"] ?? "0") > maxBytes) {
    return Promise.reject(new PayloadTooLargeError(maxBytes));
  }
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // A body that has arrived whole (read before, once the request's I/O callback is over) is taken at once.
  if (incoming.complete && incoming.readableLength > 0 && !incoming.readableFlowing) {
    if (incoming.readableLength > maxBytes) return Promise.reject(new PayloadTooLargeError(maxBytes));
    const whole = incoming.read() as Buffer | null;
    if (whole && incoming.readableLength === 0) return Promise.resolve(whole);
    if (whole) incoming.unshift(whole);
  }
  // The usual case on the router's path: the handler runs (with every microtask after it) before the parser
  // passes on the body of the same read. The listeners are shared functions reading the call's state from
  // the request, not closures made per call.
  return new Promise((resolve, reject) => {
    (incoming as BodyReading)[READING] = { chunks: [], total: 0, maxBytes, resolve, reject };
    incoming.on("data", onBodyData);
    incoming.on("end", onBodyEnd);
    // A client that disconnects mid-body: the request closes before its end (node:http emits "error" only to
    // listeners, and "close" in every case).
    incoming.on("close", onBodyClose);
  });
}

const READING = Symbol("reading body");
interface BodyReading extends IncomingMessage {
  [READING]?: {
    chunks: Buffer[];
    total: number;
    maxBytes: number;
    resolve(body: Buffer): void;
    reject(error: Error): void;
  };
}

function onBodyData(this: BodyReading, chunk: Buffer): void {
  const reading = this[READING]!;
  reading.total += chunk.byteLength;
  if (reading.total > reading.maxBytes) {
    // Stop reading; the 413 goes out and the connection is closed behind it.
    this.off("data", onBodyData);
    this.pause();
    reading.reject(new PayloadTooLargeError(reading.maxBytes));
    return;
  }
  reading.chunks.push(chunk);
}

function onBodyEnd(this: BodyReading): void {
  const { chunks, resolve } = this[READING]!;
  resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

function onBodyClose(this: BodyReading): void {
  if (!this.readableEnded) this[READING]!.reject(new ClientAbortedError());
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. Real requests (chat messages, tool schemas)
 * stay far below it; code that walks a parsed body recursively can then never overflow the stack.
 */
export const MAX_JSON_DEPTH = 256;

/** The deepest nesting of `[`/`{` in JSON text, stopping as soon as it passes `limit` (strings skipped). */
function jsonDepthExceeds(text: string, limit: number): boolean {
  // Each level takes a character: a shorter text cannot pass the limit (most router calls' bodies, read on
  // every call; the scan was a visible part of parseJsonBody in the steady-state router profile).
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** One decoder for every body: a whole-input decode() keeps no state between calls. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a JSON request body: InvalidJsonError (400) when malformed, not UTF-8, or nested too deeply. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new InvalidJsonError("The request body is not valid UTF-8.");
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new InvalidJsonError(
      `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError();
  }
}

/** Reads and parses a JSON request body of at most `maxBytes`. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new UnsupportedMediaTypeError('The request body must be JSON ("Content-Type: application/json").');
  }
  return parseJsonBody(await readBodyBytes(c, maxBytes));
}

/** `value` when it is a JSON object (not an array, not null), or InvalidInputError. */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw new InvalidInputError("Expected a JSON object.");
  return value;
}
