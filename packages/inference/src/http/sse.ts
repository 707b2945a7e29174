import { StreamError } from "../errors.js";

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;
const DATA_PREFIX = "data: ";

export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

/**
 * Parsed events as parallel arrays rather than one object per event: a chat stream is tens of thousands of
 * events that are data only. Event types and ids are recorded only from the first event that has one.
 */
export class SseEventBatch {
  readonly data: string[] = [];
  /** event[i] and id[i] belong to data[i]; both are shorter than `data` while no event had a type or id. */
  private readonly event: Array<string | undefined> = [];
  private readonly id: Array<string | undefined> = [];

  get length(): number {
    return this.data.length;
  }

  push(data: string, event: string | undefined, id: string | undefined): void {
    if (event !== undefined || id !== undefined) {
      while (this.event.length < this.data.length) {
        this.event.push(undefined);
        this.id.push(undefined);
      }
      this.event.push(event);
      this.id.push(id);
    }
    this.data.push(data);
  }

  eventAt(index: number): string | undefined {
    return index < this.event.length ? this.event[index] : undefined;
  }

  idAt(index: number): string | undefined {
    return index < this.id.length ? this.id[index] : undefined;
  }

  clear(): void {
    this.data.length = 0;
    this.event.length = 0;
    this.id.length = 0;
  }
}

/**
 * Bytes in, complete server-sent events out, whatever the chunking: "\n", "\r\n" and lone "\r" end a
 * line, multi-line `data` is joined with "\n", comments (":") are skipped, `event` and `id` are read, a
 * blank line dispatches, and a last event with no blank line is delivered at the end.
 *
 * The common framing - each event a single `data: ...` line then a blank line, with LF (or CRLF) line
 * ends - is read by a fast path that finds whole events with `indexOf` and copies nothing; anything else
 * (lone CR, mixed line ends, comments, other fields, multi-line data, an event cut by the chunk boundary)
 * goes through the general line-by-line path, and the fast path resumes at the next event boundary.
 */
export class SseParser {
  /**
   * Whole chunks go through `wholeDecoder`; a chunk that ends inside a character goes through the streaming
   * decoder, which holds the cut bytes. Two decoders because node's TextDecoder leaves its fast path for
   * good once used in streaming mode (whole decoding is several times cheaper). ignoreBOM: each whole chunk
   * is a separate decode; the stream's leading BOM is dropped in `decode`.
   */
  private readonly wholeDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private streamingDecoder: TextDecoder | undefined;
  /** The streaming decoder holds the first bytes of a character cut by the chunk boundary. */
  private decoderHolds = false;
  private started = false;
  /** Text after the last complete line. */
  private rest = "";
  /** The event being assembled by the general path. */
  private data: string | undefined;
  private eventType: string | undefined;
  /** Per the SSE spec the last event id carries over to later events. */
  private lastEventId: string | undefined;

  /** Parses one chunk, appending the events it completes to `out`. */
  feed(bytes: Uint8Array, out: SseEventBatch): void {
    if (bytes.length > 0) this.scan(this.decode(bytes), out, false);
  }

  /** End of input: a last unterminated line and a last event with no blank line are delivered. */
  end(out: SseEventBatch): void {
    this.scan(this.decoderHolds ? this.streamingDecoder!.decode() : "", out, true);
    this.decoderHolds = false;
    this.dispatch(out);
  }

  /** A chunk ending in an ASCII byte (nearly always "\n") completes every character it starts. */
  private decode(bytes: Uint8Array): string {
    const endsWhole = bytes[bytes.length - 1]! < 0x80;
    let text: string;
    if (endsWhole && !this.decoderHolds) {
      text = this.wholeDecoder.decode(bytes);
    } else {
      this.streamingDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
      text = this.streamingDecoder.decode(bytes, { stream: true });
    }
    this.decoderHolds = !endsWhole;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    return text;
  }

  private scan(text: string, out: SseEventBatch, final: boolean): void {
    const buffer = this.rest === "" ? text : this.rest + text;
    const length = buffer.length;
    const lfOnly = buffer.indexOf("\r") === -1;
    let pos = 0;
    for (;;) {
      if (this.data === undefined && this.eventType === undefined) {
        pos = lfOnly ? this.scanSimpleEvents(buffer, pos, out) : this.scanSimpleCrlfEvents(buffer, pos, out);
      }
      let end: number;
      let next: number;
      if (lfOnly) {
        end = buffer.indexOf("\n", pos);
        if (end === -1) break;
        next = end + 1;
      } else {
        end = lineEnd(buffer, pos);
        if (end === length) break;
        if (buffer.charCodeAt(end) === CR) {
          // A "\n" may start the next chunk: wait for it, unless there is no next chunk.
          if (end + 1 === length && !final) break;
          next = buffer.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        } else {
          next = end + 1;
        }
      }
      this.line(buffer.slice(pos, end), out);
      pos = next;
    }
    if (final) {
      if (pos < length) this.line(buffer.slice(pos), out);
      this.rest = "";
    } else {
      this.rest = pos === 0 ? buffer : buffer.slice(pos);
    }
  }

  /** The fast path, at an event boundary: `data: ...\n\n` events; returns where it stopped. */
  private scanSimpleEvents(buffer: string, pos: number, out: SseEventBatch): number {
    const id = this.lastEventId;
    for (;;) {
      if (!buffer.startsWith(DATA_PREFIX, pos)) return pos;
      const end = buffer.indexOf("\n", pos + DATA_PREFIX.length);
      // No blank line right after (or not yet seen): the general path takes this line.
      if (end === -1 || buffer.charCodeAt(end + 1) !== LF) return pos;
      const data = buffer.slice(pos + DATA_PREFIX.length, end);
      if (id === undefined) out.data.push(data);
      else out.push(data, undefined, id);
      pos = end + 2;
    }
  }

  /**
   * The fast path for servers that end lines with CRLF: `data: ...\r\n\r\n` events whose data holds no
   * other "\r" or "\n"; returns where it stopped.
   */
  private scanSimpleCrlfEvents(buffer: string, pos: number, out: SseEventBatch): number {
    const id = this.lastEventId;
    for (;;) {
      if (!buffer.startsWith(DATA_PREFIX, pos)) return pos;
      const from = pos + DATA_PREFIX.length;
      const end = buffer.indexOf("\r", from);
      if (
        end === -1 ||
        !buffer.startsWith("\n\r\n", end + 1) ||
        buffer.indexOf("\n", from) !== end + 1 // a line break inside: the general path
      ) {
        return pos;
      }
      const data = buffer.slice(from, end);
      if (id === undefined) out.data.push(data);
      else out.push(data, undefined, id);
      pos = end + 4;
    }
  }

  /** One line of the general path. */
  private line(line: string, out: SseEventBatch): void {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    if (field === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (field === "event") this.eventType = value;
    else if (field === "id") this.lastEventId = value;
  }

  /** A blank line: the event assembled so far (if it has data) is complete. */
  private dispatch(out: SseEventBatch): void {
    if (this.data !== undefined) out.push(this.data, this.eventType, this.lastEventId);
    this.data = undefined;
    this.eventType = undefined;
  }
}

/** Index of the first "\r" or "\n" at or after `from`, or the length when there is none. */
function lineEnd(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || code === CR) break;
  }
  return i;
}

/** One read of the body; a broken connection becomes a StreamError. */
export async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (cause) {
    throw new StreamError(
      `The stream ended unexpectedly: ${cause instanceof Error ? cause.message : cause}`,
      { cause },
    );
  }
}

/** Raw SSE events from a byte stream. Cancels the body if the consumer stops early. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const parser = new SseParser();
  const batch = new SseEventBatch();
  let finished = false;
  try {
    for (;;) {
      const chunk = await readChunk(reader);
      batch.clear();
      if (chunk.done) parser.end(batch);
      else parser.feed(chunk.value, batch);
      for (let i = 0; i < batch.length; i++) {
        yield { event: batch.eventAt(i), data: batch.data[i]!, id: batch.idAt(i) };
      }
      if (chunk.done) break;
    }
    finished = true;
  } finally {
    // Early stop (break / return / throw in the consumer) or an error: release the connection.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
