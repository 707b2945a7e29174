import { sseEvents } from "@modelhub/inference";
import { UpstreamError } from "../errors.js";
import type { ProviderAnswer } from "./provider-call.js";
import { ResponseEventWriter, type TranslatedRequest, translateCompletion } from "./responses-translate.js";

/** Longest whole chat answer read for translation (a chat completion is a few kB; this is a bound, not a size). */
const MAX_COMPLETION_BYTES = 32 * 1024 * 1024;

/**
 * A provider's chat answer as the Responses API's answer: a 2xx JSON completion as a Response object, a 2xx
 * stream of chunks as a stream of Responses events (translated as they arrive, with back-pressure: nothing is
 * buffered beyond one event); an error answer as the provider gave it (already OpenAI's error shape).
 */
export async function responseAnswer(
  answer: ProviderAnswer,
  request: TranslatedRequest,
): Promise<ProviderAnswer> {
  if (answer.status < 200 || answer.status >= 300 || answer.body === null) return answer;
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  const isStream = (answer.headers.get("content-type") ?? "").includes("text/event-stream");
  if (request.stream) {
    headers.set("content-type", "text/event-stream; charset=utf-8");
    headers.set("cache-control", "no-cache");
    const writer = new ResponseEventWriter(request.echo);
    if (isStream && answer.body instanceof ReadableStream) {
      return { status: answer.status, headers, body: eventsOf(answer.body, writer) };
    }
    // A server that answered a stream request whole: its completion as one chunk.
    const completion = await wholeJson(answer.body);
    const text = writer.start() + writer.chunk(asChunk(completion)) + writer.end();
    return { status: answer.status, headers, body: new TextEncoder().encode(text) };
  }
  headers.set("content-type", "application/json");
  const completion = await wholeJson(answer.body);
  let response: Record<string, unknown>;
  try {
    response = translateCompletion(completion, request.echo);
  } catch (error) {
    throw new UpstreamError(
      `The provider's chat answer could not be read as a completion: ${(error as Error).message}.`,
    );
  }
  return { status: answer.status, headers, body: new TextEncoder().encode(JSON.stringify(response)) };
}

/** A provider's whole answer parsed as JSON (an UpstreamError when it is not). */
async function wholeJson(body: ReadableStream<Uint8Array> | Uint8Array): Promise<unknown> {
  let bytes: Uint8Array;
  if (body instanceof Uint8Array) bytes = body;
  else {
    const parts: Uint8Array[] = [];
    let total = 0;
    const reader = body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const part = next.value;
      total += part.byteLength;
      if (total > MAX_COMPLETION_BYTES)
        throw new UpstreamError("The provider's chat answer is too large to translate.");
      parts.push(part);
    }
    bytes = Buffer.concat(parts);
  }
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    throw new UpstreamError("The provider's chat answer is not JSON.");
  }
}

/** A whole chat completion as a single streamed chunk (its message as one delta). */
function asChunk(completion: unknown): unknown {
  const record = (completion ?? {}) as {
    choices?: { message?: Record<string, unknown>; finish_reason?: unknown }[];
    usage?: unknown;
  };
  const choice = record.choices?.[0];
  const message = choice?.message ?? {};
  const toolCalls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call: Record<string, unknown>, index: number) => ({ index, ...call }))
    : undefined;
  return {
    choices: [
      {
        delta: {
          content: message.content,
          tool_calls: toolCalls,
          reasoning_content: message.reasoning_content ?? message.reasoning,
        },
        finish_reason: choice?.finish_reason,
      },
    ],
    usage: record.usage,
  };
}

/**
 * The provider's SSE chat chunks (parsed by the inference client's SSE parser) as Responses events. The provider's stream is
 * read to its end (so its call is recorded as complete); cancelling this stream (the caller left) cancels it.
 * A provider stream that breaks off ends with an `error` event and `response.failed`.
 */
function eventsOf(body: ReadableStream<Uint8Array>, writer: ResponseEventWriter): ReadableStream<Uint8Array> {
  const events = sseEvents(body);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(writer.start()));
    },
    async pull(controller) {
      for (;;) {
        let next: IteratorResult<{ data: string }>;
        try {
          next = await events.next();
        } catch {
          const text = writer.fail("The provider's stream broke off before its end.");
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        if (next.done) {
          const text = writer.end();
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        const data = next.value.data;
        let text: string;
        if (data === "[DONE]") text = writer.end();
        else {
          try {
            text = writer.chunk(JSON.parse(data));
          } catch {
            continue; // a keep-alive or comment-like line: nothing to translate
          }
        }
        if (text) {
          controller.enqueue(encoder.encode(text));
          return;
        }
      }
    },
    async cancel() {
      // The generator's cleanup cancels the provider's stream.
      await events.return(undefined);
    },
  });
}
