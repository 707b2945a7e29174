import { ProviderApiError, ProviderOutputError, redactRequest, StreamError } from "../errors.js";
import type { CallContext } from "./call-context.js";
import type { HttpRequest } from "./request.js";

/**
 * Splits decoded text into lines whatever the chunking: "\n", "\r\n" and lone "\r" all end a line, and a
 * "\r" at the very end of a chunk is held back until the next chunk shows whether "\n" follows.
 */
export class LineDecoder {
  private pending = "";

  push(text: string): string[] {
    const buffer = this.pending + text;
    const lines: string[] = [];
    let start = 0;
    if (buffer.indexOf("\r") === -1) {
      // Fast path (the common case): LF-only text.
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n", start)) {
        lines.push(buffer.slice(start, end));
        start = end + 1;
      }
      this.pending = buffer.slice(start);
      return lines;
    }
    for (let i = 0; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      if (code === 13 && i === buffer.length - 1) break; // wait: a "\n" may start the next chunk
      lines.push(buffer.slice(start, i));
      if (code === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.pending = buffer.slice(start);
    return lines;
  }

  /** End of input: whatever is left is a last, unterminated line. */
  flush(): string[] {
    const rest = this.pending;
    this.pending = "";
    if (rest === "") return [];
    return [rest.endsWith("\r") ? rest.slice(0, -1) : rest];
  }
}

export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

/** Assembles SSE events from lines: multi-line `data`, comments (":"), `event`/`id` fields, blank = dispatch. */
export class EventAssembler {
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;

  /** Returns a completed event when `line` is the blank line that ends one. */
  line(line: string): SseEvent | undefined {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = undefined;
        return undefined;
      }
      const event = { event: this.event, data: this.data.join("\n"), id: this.id };
      this.data = [];
      this.event = undefined;
      return event;
    }
    if (line.charCodeAt(0) === 58 /* ":" */) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") this.id = value;
    return undefined;
  }

  /** End of stream: an event not followed by a blank line is still delivered. */
  finish(): SseEvent | undefined {
    return this.line("");
  }
}

/** Raw SSE events from a byte stream. Cancels the body if the consumer stops early. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = new LineDecoder();
  const events = new EventAssembler();
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        throw new StreamError(
          `The stream ended unexpectedly: ${cause instanceof Error ? cause.message : cause}`,
          {
            cause,
          },
        );
      }
      if (chunk.done) break;
      for (const line of lines.push(decoder.decode(chunk.value, { stream: true }))) {
        const event = events.line(line);
        if (event) yield event;
      }
    }
    for (const line of lines.push(decoder.decode())) {
      const event = events.line(line);
      if (event) yield event;
    }
    for (const line of lines.flush()) {
      const event = events.line(line);
      if (event) yield event;
    }
    const last = events.finish();
    finished = true;
    if (last) yield last;
  } finally {
    // Early stop (break / return / throw in the consumer) or an error: release the connection.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * JSON events of an OK streaming response: checks the content type, ends at `[DONE]`, forwards in-stream
 * errors as "Error forwarded from backend: ...", and turns aborts into the call's typed error.
 */
export async function* jsonEvents<T>(
  response: Response,
  request: HttpRequest,
  call: CallContext,
  validate: (value: unknown) => T,
): AsyncGenerator<T> {
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/event-stream")) {
    await response.body?.cancel().catch(() => {});
    throw new ProviderOutputError(
      `Server ${request.url} does not support event streaming: content type was "${contentType}", expected "text/event-stream"`,
    );
  }
  if (!response.body) throw new ProviderOutputError("Streaming response has no body");
  try {
    for await (const event of sseEvents(response.body)) {
      // Events already buffered must not outlive an abort.
      if (call.signal.aborted) throw call.abortError();
      if (event.data === "[DONE]") return;
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch (cause) {
        throw new ProviderOutputError(`Malformed event in stream: ${event.data.slice(0, 200)}`, { cause });
      }
      if (event.event === "error" || (typeof value === "object" && value !== null && "error" in value)) {
        const error = (value as { error?: unknown }).error ?? value;
        const text =
          typeof error === "string"
            ? error
            : typeof (error as { message?: unknown })?.message === "string"
              ? (error as { message: string }).message
              : JSON.stringify(error);
        throw new ProviderApiError(`Error forwarded from backend: ${text}`, {
          status: response.status,
          provider: request.provider,
          requestId: response.headers.get("x-request-id") ?? undefined,
          request: redactRequest(request.url, request.method, request.headers),
          retryable: false,
          body: value,
        });
      }
      yield validate(value);
    }
  } catch (error) {
    if (call.signal.aborted) throw call.abortError();
    throw error;
  }
}
