import { ProviderApiError, ProviderOutputError, redactRequest } from "../errors.js";
import type { CallContext } from "./call-context.js";
import type { HttpRequest } from "./request.js";
import { readChunk, SseEventBatch, SseParser } from "./sse.js";

/** An opened streaming call: what `jsonEvents` reads from. */
export interface StreamSource<T> {
  response: Response;
  request: HttpRequest;
  call: CallContext;
  validate: (value: unknown) => T;
}

/**
 * JSON events of a streaming call: opens the call lazily (first `next()`), checks the content type, ends at
 * `[DONE]`, forwards in-stream errors as "Error forwarded from backend: ...", turns aborts into the call's
 * typed error, cancels the body when the consumer stops early, and releases the call at the end.
 *
 * One hand-written pull iterator from the body reader to the validated value, rather than layered async
 * generators: events parsed from one network chunk are handed out as already-resolved promises, without a
 * generator's extra await per `yield` and with no object per event besides the parsed JSON.
 */
export function jsonEvents<T>(open: () => Promise<StreamSource<T>>): AsyncGenerator<T, void, undefined> {
  return new JsonEventIterator(open);
}

class JsonEventIterator<T> implements AsyncGenerator<T, void, undefined> {
  private source: StreamSource<T> | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly parser = new SseParser();
  /** The events of the last chunk read; `index` is the next one to hand out. */
  private readonly batch = new SseEventBatch();
  private index = 0;
  /** Whether anything can abort the call: when nothing can, no signal check per event. */
  private abortable = false;
  private ended = false;
  private closed = false;

  constructor(private readonly open: () => Promise<StreamSource<T>>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, void>> {
    // Fast path: an event of the current chunk is ready.
    if (this.index < this.batch.length && !this.closed) {
      try {
        return Promise.resolve(this.take());
      } catch (error) {
        return this.fail(error);
      }
    }
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return this.fill()
      .then(() => this.take())
      .catch((error) => this.fail(error));
  }

  async return(): Promise<IteratorResult<T, void>> {
    await this.close(true);
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<T, void>> {
    await this.close(true);
    throw error;
  }

  /** Reads chunks until an event is ready or the stream ended. */
  private async fill(): Promise<void> {
    if (!this.source) await this.start();
    const reader = this.reader!;
    this.batch.clear();
    this.index = 0;
    while (this.batch.length === 0 && !this.ended) {
      const chunk = await readChunk(reader);
      if (chunk.done) {
        this.ended = true;
        this.parser.end(this.batch);
      } else {
        this.parser.feed(chunk.value, this.batch);
      }
    }
  }

  private async start(): Promise<void> {
    this.source = await this.open();
    const { response, request, call } = this.source;
    this.abortable = call.abortable;
    const contentType = response.headers.get("content-type") ?? "";
    if (!contentType.startsWith("text/event-stream")) {
      throw new ProviderOutputError(
        `Server ${request.url} does not support event streaming: content type was "${contentType}", expected "text/event-stream"`,
      );
    }
    if (!response.body) throw new ProviderOutputError("Streaming response has no body");
    this.reader = response.body.getReader();
  }

  /** Hands out the next ready event (synchronously), or ends the iteration. */
  private take(): IteratorResult<T, void> {
    const source = this.source!;
    if (this.abortable && source.call.signal.aborted) throw source.call.abortError();
    const index = this.index;
    if (index >= this.batch.length) {
      void this.close(false);
      return { done: true, value: undefined };
    }
    this.index = index + 1;
    const data = this.batch.data[index]!;
    if (data === "[DONE]") {
      void this.closeAfterDone();
      return { done: true, value: undefined };
    }
    return { done: false, value: source.validate(parseEvent(data, this.batch.eventAt(index), source)) };
  }

  private async fail(error: unknown): Promise<never> {
    const call = this.source?.call;
    await this.close(true);
    throw call?.signal.aborted ? call.abortError() : error;
  }

  /**
   * Releases everything once; `cancel` also tells the server we stopped reading. The reader's lock is
   * not released: nothing reads this body again, and releasing costs an error object (a stack trace).
   */
  private async close(cancel: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reader) {
      if (cancel && !this.ended) await this.reader.cancel().catch(() => {});
    } else {
      await this.source?.response.body?.cancel().catch(() => {});
    }
    this.source?.call.dispose();
  }

  /**
   * After `[DONE]` the body's end has usually arrived with it: one more read finds it, and the connection
   * is free without a cancel (cancelling a fetch body costs undici ~0.1 ms, several percent of a
   * 1000-event stream). A body that goes on, or has not ended by the next timer turn, is cancelled.
   */
  private async closeAfterDone(): Promise<void> {
    const reader = this.reader;
    if (this.closed || !reader || this.ended) return this.close(false);
    this.closed = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      reader.read().then(
        (chunk) => chunk.done,
        () => true, // the body failed: nothing left to release
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(resolve, 0, false);
      }),
    ]);
    clearTimeout(timer);
    if (!ended) await reader.cancel().catch(() => {});
    this.source?.call.dispose();
  }
}

function parseEvent(data: string, type: string | undefined, source: StreamSource<unknown>): unknown {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (cause) {
    throw new ProviderOutputError(`Malformed event in stream: ${data.slice(0, 200)}`, { cause });
  }
  if (type === "error" || (typeof value === "object" && value !== null && "error" in value)) {
    throw forwardedError(value, source);
  }
  return value;
}

function forwardedError(value: unknown, { response, request }: StreamSource<unknown>): ProviderApiError {
  const error =
    typeof value === "object" && value !== null ? ((value as { error?: unknown }).error ?? value) : value;
  const text =
    typeof error === "string"
      ? error
      : typeof (error as { message?: unknown })?.message === "string"
        ? (error as { message: string }).message
        : JSON.stringify(error);
  return new ProviderApiError(`Error forwarded from backend: ${text}`, {
    status: response.status,
    provider: request.provider,
    requestId: response.headers.get("x-request-id") ?? undefined,
    request: redactRequest(request.url, request.method, request.headers),
    retryable: false,
    body: value,
  });
}
