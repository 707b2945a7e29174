import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from "../errors.js";

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
    const { done, value } = await reader.read();
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
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        // Stop reading; the 413 goes out and the connection is closed behind it.
        incoming.off("data", onData);
        incoming.pause();
        reject(new PayloadTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    incoming.on("data", onData);
    incoming.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.once("error", reject);
  });
}

/** Reads and parses a JSON request body of at most `maxBytes`. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new UnsupportedMediaTypeError('The request body must be JSON ("Content-Type: application/json").');
  }
  const bytes = await readBodyBytes(c, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new InvalidJsonError();
  }
}
