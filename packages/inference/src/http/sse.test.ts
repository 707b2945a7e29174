import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProviderApiError, ProviderOutputError, StreamError } from "../errors.js";
import { createCallContext } from "./call-context.js";
import { retryPolicy } from "./retry-policy.js";
import { EventAssembler, jsonEvents, LineDecoder, type SseEvent, sseEvents } from "./sse.js";

const encoder = new TextEncoder();

function streamOf(chunks: Array<string | Uint8Array>, onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks.length) return controller.close();
      const chunk = chunks[i++]!;
      controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
    cancel() {
      onCancel?.();
    },
  });
}

async function collect(chunks: Array<string | Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(streamOf(chunks))) events.push(event);
  return events;
}

/** Splits bytes at the given cut points (which may fall inside a multi-byte character or a CRLF). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(bytes.subarray(start, point));
    start = point;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

describe("LineDecoder", () => {
  it("handles LF, CRLF and lone CR, including a CR at the end of a chunk", () => {
    const decoder = new LineDecoder();
    expect(decoder.push("a\nb\r")).toEqual(["a"]);
    expect(decoder.push("\nc\rd")).toEqual(["b", "c"]);
    expect(decoder.flush()).toEqual(["d"]);
  });
});

describe("EventAssembler", () => {
  it("joins multi-line data, skips comments and reads event / id fields", () => {
    const assembler = new EventAssembler();
    const lines = [": keep-alive", "event: message", "id: 7", "data: line one", "data:line two", ""];
    const events = lines.map((line) => assembler.line(line)).filter(Boolean);
    expect(events).toEqual([{ event: "message", id: "7", data: "line one\nline two" }]);
  });
});

describe("sseEvents", () => {
  const text =
    ": comment\r\n" +
    'data: {"n":1}\r\n\r\n' +
    "event: update\n" +
    'data: {"n":\n' +
    "data: 2}\n\n" +
    'data: {"s":"héllo ✓"}\r\r' +
    "data: [DONE]\n\n";
  const expected = [
    { event: undefined, id: undefined, data: '{"n":1}' },
    { event: "update", id: undefined, data: '{"n":\n2}' },
    { event: undefined, id: undefined, data: '{"s":"héllo ✓"}' },
    { event: undefined, id: undefined, data: "[DONE]" },
  ];

  it("parses CRLF, CR, multi-line data and comments", async () => {
    expect(await collect([text])).toEqual(expected);
  });

  it("gives the same events for every way of chunking the bytes (property)", async () => {
    const bytes = encoder.encode(text);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(bytes.length), { maxLength: 20 }), async (cuts) => {
        expect(await collect(split(bytes, cuts))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("delivers a last event that has no trailing blank line", async () => {
    expect(await collect(["data: tail"])).toEqual([{ event: undefined, id: undefined, data: "tail" }]);
  });

  it("cancels the body when the consumer stops early", async () => {
    let cancelled = false;
    const stream = streamOf(['data: {"a":1}\n\n', 'data: {"a":2}\n\n', 'data: {"a":3}\n\n'], () => {
      cancelled = true;
    });
    for await (const event of sseEvents(stream)) {
      expect(event.data).toBe('{"a":1}');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it("turns a broken connection into a StreamError", async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode('data: {"a":1}\n\n'));
        } else controller.error(new TypeError("terminated"));
      },
    });
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of sseEvents(stream)) seen.push(event.data);
    }).rejects.toSatisfy((e) => StreamError.isInstance(e));
    expect(seen).toEqual(['{"a":1}']);
  });
});

describe("jsonEvents", () => {
  const request = { url: "http://x/v1/chat/completions", method: "POST", headers: {}, provider: "together" };
  const call = () => createCallContext({ retry: retryPolicy(false, undefined) });
  const sse = (body: string, type = "text/event-stream") =>
    new Response(body, { headers: { "content-type": type } });
  const all = async (response: Response) => {
    const out: unknown[] = [];
    for await (const value of jsonEvents(async () => ({
      response,
      request,
      call: call(),
      validate: (v: unknown) => v,
    })))
      out.push(value);
    return out;
  };

  it("ends at [DONE] and ignores anything after it", async () => {
    expect(await all(sse('data: {"a":1}\n\ndata: [DONE]\n\ndata: {"a":2}\n\n'))).toEqual([{ a: 1 }]);
  });

  it("rejects a response that is not an event stream", async () => {
    await expect(all(sse('{"a":1}', "application/json"))).rejects.toSatisfy(
      (e) => ProviderOutputError.isInstance(e) && String(e).includes("text/event-stream"),
    );
  });

  it("forwards in-stream errors", async () => {
    await expect(all(sse('data: {"a":1}\n\ndata: {"error":"overloaded"}\n\n'))).rejects.toSatisfy(
      (e) =>
        ProviderApiError.isInstance(e) && (e as Error).message === "Error forwarded from backend: overloaded",
    );
    await expect(all(sse('event: error\ndata: {"message":"bad"}\n\n'))).rejects.toSatisfy((e) =>
      String(e).includes("Error forwarded from backend: bad"),
    );
  });

  it("reports malformed events as ProviderOutputError", async () => {
    await expect(all(sse("data: {not json\n\n"))).rejects.toSatisfy((e) => ProviderOutputError.isInstance(e));
  });
});
