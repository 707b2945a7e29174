import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProviderApiError, ProviderOutputError, StreamError } from "../errors.js";
import { createCallContext } from "./call-context.js";
import { jsonEvents } from "./json-events.js";
import { retryPolicy } from "./retry-policy.js";
import { type SseEvent, SseEventBatch, SseParser, sseEvents } from "./sse.js";

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

/** The SSE algorithm written plainly over the whole text: what the incremental parser must agree with. */
function referenceEvents(text: string): SseEvent[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const events: SseEvent[] = [];
  let data: string | undefined;
  let event: string | undefined;
  let id: string | undefined;
  const dispatch = () => {
    if (data !== undefined) events.push({ event, data, id });
    data = undefined;
    event = undefined;
  };
  for (const line of lines) {
    if (line === "") dispatch();
    else if (!line.startsWith(":")) {
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data = data === undefined ? value : `${data}\n${value}`;
      else if (field === "event") event = value;
      else if (field === "id") id = value;
    }
  }
  dispatch();
  return events;
}

describe("SseParser", () => {
  const parse = (chunks: string[]) => {
    const parser = new SseParser();
    const batch = new SseEventBatch();
    for (const chunk of chunks) parser.feed(encoder.encode(chunk), batch);
    parser.end(batch);
    return batch.data.map((data, i) => ({ event: batch.eventAt(i), data, id: batch.idAt(i) }));
  };

  it("handles LF, CRLF and lone CR, including a CR at the end of a chunk", () => {
    expect(parse(["data: a\n\ndata: b\r", "\n\r\ndata: c\r\rdata: d"]).map((e) => e.data)).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });

  it("joins multi-line data, skips comments, reads event / id fields and keeps the last id", () => {
    const text = ": keep-alive\nevent: message\nid: 7\ndata: line one\ndata:line two\n\ndata: next\n\n";
    expect(parse([text])).toEqual([
      { event: "message", id: "7", data: "line one\nline two" },
      { event: undefined, id: "7", data: "next" },
    ]);
  });

  it("reads CRLF-framed events, and hands a data line with a lone CR to the general path", () => {
    const chunks = ['data: {"a":1}\r\n\r\ndata: x\ry\r\n\r\ndata: 2\r\n\r', "\ndata: a\ndata: b\r\n\r\n"];
    expect(parse(chunks).map((e) => e.data)).toEqual(['{"a":1}', "x", "2", "a\nb"]);
  });

  it("leaves the fast path for a data line whose blank line is in the next chunk", () => {
    expect(parse(['data: {"a":1}\n', "data: 2\n\n", 'data: {"b":2}\n', "\n"]).map((e) => e.data)).toEqual([
      '{"a":1}\n2',
      '{"b":2}',
    ]);
  });

  it("drops a leading byte order mark only", () => {
    expect(parse(["\uFEFFdata: a\n\n", "\uFEFFdata: b\n\n"]).map((e) => e.data)).toEqual(["a"]);
  });

  it("agrees with the plain algorithm on any stream cut anywhere (property)", async () => {
    const line = fc.oneof(
      { arbitrary: fc.constant(""), weight: 2 },
      fc.constantFrom(": ping", "event: error", "event:update", "id: 3", "data", "retry: 10"),
      fc.string({ maxLength: 12 }).map((s) => `data: ${s.replace(/[\r\n]/g, "")}`),
      fc.string({ maxLength: 8 }).map((s) => `data:${s.replace(/[\r\n]/g, "")}`),
      fc.constantFrom('data: {"n":1}', "data: héllo ✓", "data: [DONE]"),
    );
    // Streams with mostly LF or mostly CRLF line ends: each fast path, and its hand-overs to the general path.
    const lineEnds = [
      fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"),
      fc.constantFrom("\r\n", "\r\n", "\n", "\r"),
    ];
    const stream = fc
      .constantFrom(...lineEnds)
      .chain((eol) => fc.array(fc.tuple(line, eol), { maxLength: 20 }))
      .map((pairs) => pairs.flat().join(""));
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(400), { maxLength: 12 }), async (text, cuts) => {
        expect(await collect(split(encoder.encode(text), cuts))).toEqual(referenceEvents(text));
      }),
      { numRuns: 400 },
    );
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
  const call = () => createCallContext({}, retryPolicy(false, undefined));
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

  it("after [DONE], cancels a body that goes on but not one that has ended", async () => {
    const cancelled: boolean[] = [];
    const bodyThen = (rest: string[], close: boolean) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('data: {"a":1}\n\ndata: [DONE]\n\n'));
          for (const part of rest) controller.enqueue(encoder.encode(part));
          if (close) controller.close();
        },
        cancel() {
          cancelled.push(true);
        },
      });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    const ended = new Response(bodyThen([], true), { headers: { "content-type": "text/event-stream" } });
    expect(await all(ended)).toEqual([{ a: 1 }]);
    await settle();
    expect(cancelled).toEqual([]);
    // Data after [DONE] on a body still open, and a body that stays open without a byte more.
    for (const rest of [['data: {"late":1}\n\n'], []]) {
      const response = new Response(bodyThen(rest, false), {
        headers: { "content-type": "text/event-stream" },
      });
      expect(await all(response)).toEqual([{ a: 1 }]);
      await settle();
    }
    expect(cancelled).toEqual([true, true]);
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
