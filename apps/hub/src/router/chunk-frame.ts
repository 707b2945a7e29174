/** HTTP/1.1 chunked transfer coding, one chunk to a buffer (streamed-answer.ts, front/front-exchange.ts). */

const CR = 0x0d;
const LF = 0x0a;
/** The bytes of `0123456789abcdef`. */
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

/** One HTTP/1.1 chunk (`<size in hex>\r\n<data>\r\n`) in a single buffer. */
export function frameChunk(data: Buffer): Buffer {
  return frameChunks([data], data.byteLength);
}

/** One HTTP/1.1 chunk holding `chunks` (`bytes` in all) one after the other, in a single buffer. */
export function frameChunks(chunks: readonly Buffer[], bytes: number): Buffer {
  // The size's hex digits are set byte by byte: a string and Buffer.write() per chunk (one per SSE event)
  // cost more than the copy.
  let digits = 1;
  for (let rest = bytes >>> 4; rest > 0; rest >>>= 4) digits++;
  const frame = Buffer.allocUnsafe(digits + bytes + 4);
  for (let at = digits - 1, rest = bytes; at >= 0; at--, rest >>>= 4) frame[at] = HEX_DIGITS[rest & 15]!;
  frame[digits] = CR;
  frame[digits + 1] = LF;
  let at = digits + 2;
  for (const chunk of chunks) at += chunk.copy(frame, at);
  frame[at] = CR;
  frame[at + 1] = LF;
  return frame;
}
