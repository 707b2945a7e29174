import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { InvalidJsonError, PayloadTooLargeError } from "../errors.js";

/** The request body as a stream of chunks: the Node request itself when there is one (no web-stream copy). */
export function requestStream(c: Context): AsyncIterable<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && typeof incoming.on === "function") return incoming;
  const body = c.req.raw.body;
  if (!body) return (async function* () {})();
  return body as unknown as AsyncIterable<Uint8Array>;
}

/**
 * Parses newline-delimited JSON as it arrives: one value per non-empty line, each line at most `maxLineBytes`
 * (the whole body is never held in memory, only the current line).
 */
export async function* ndjsonValues(
  source: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
): AsyncGenerator<unknown> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const parse = (line: Buffer): unknown => {
    try {
      return JSON.parse(line.toString("utf8"));
    } catch {
      throw new InvalidJsonError("The request body is not valid NDJSON (one JSON value per line).");
    }
  };
  for await (const chunk of source) {
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let newline = buffer.indexOf(10); newline >= 0; newline = buffer.indexOf(10)) {
      const tail = buffer.subarray(0, newline);
      const line = pending.length ? Buffer.concat([...pending, tail]) : tail;
      pending = [];
      pendingBytes = 0;
      buffer = buffer.subarray(newline + 1);
      if (line.byteLength > maxLineBytes) throw new PayloadTooLargeError(maxLineBytes);
      if (line.toString("utf8").trim()) yield parse(line);
    }
    if (buffer.byteLength) {
      pendingBytes += buffer.byteLength;
      if (pendingBytes > maxLineBytes) throw new PayloadTooLargeError(maxLineBytes);
      // Copy: the chunk's memory may be reused by the stream once we yield.
      pending.push(Buffer.from(buffer));
    }
  }
  const last = Buffer.concat(pending);
  if (last.toString("utf8").trim()) yield parse(last);
}
