/** HTTP/1.1 chunked framing, for tests whose provider answers on raw TCP. */

/** One HTTP/1.1 chunk (`<size in hex>\r\n<data>\r\n`). */
export function frameChunk(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.byteLength.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
}
