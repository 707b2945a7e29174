import { describe, expect, it } from "vitest";
import { ProviderApiError, ProviderOutputError } from "./errors.js";
import * as tasks from "./tasks/all.js";
import { classify, type Exchange, type ReplayCall, recordedTraffic } from "./testing/recorded-traffic.js";
import { TASK_FUNCTIONS } from "./testing/task-functions.js";

/**
 * Replay: every recorded request this client can issue is issued again through the public task functions
 * with a fetch that serves the recorded answers. The request must be the recorded one (method, URL, JSON
 * body) and the recorded answer must parse to the documented output (or the documented typed error).
 */
const traffic = recordedTraffic();
const classified = traffic.map((exchange) => classify(exchange, traffic));
const calls = classified.flatMap((c) => (c.kind === "call" ? [c.call] : []));
const skipped = classified.flatMap((c) => (c.kind === "skip" ? [c] : []));

function recordedResponse(exchange: Exchange): Response {
  const type = exchange.responseHeaders["content-type"] ?? "application/json";
  const textual = /json|text|event-stream/.test(type);
  const headers: Record<string, string> = { "content-type": type };
  const requestId = exchange.responseHeaders["x-request-id"];
  if (requestId) headers["x-request-id"] = requestId;
  return new Response(textual ? exchange.responseBody : new Uint8Array([1, 2, 3]), {
    status: exchange.status,
    headers,
  });
}

interface SeenRequest {
  url: string;
  method: string;
  body: unknown;
}

/** Serves the fake hub mapping, the recorded answer, and recorded follow-ups (polls, downloads). */
function replayFetch(call: ReplayCall, seen: SeenRequest[], index: number): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : init?.body ? "<binary>" : undefined;
    seen.push({ url, method, body });
    if (url.startsWith("https://huggingface.co/api/models/")) {
      const entry = { providerId: call.providerModelId, status: "live", task: call.task };
      // Exercise both shapes the hub may answer with.
      const mapping =
        call.provider === "hf-inference"
          ? {}
          : index % 2
            ? [{ provider: call.provider, ...entry }]
            : { [call.provider]: entry };
      return Response.json({ id: call.model, inferenceProviderMapping: mapping });
    }
    if (method === "POST" && url === call.exchange.url) return recordedResponse(call.exchange);
    const followUp = traffic.find((e) => e.url === url && e.method === method);
    if (followUp) return recordedResponse(followUp);
    return new Response(`no recording for ${method} ${url}`, { status: 599 });
  };
}

async function run(call: ReplayCall, fetchImpl: typeof fetch): Promise<unknown> {
  const args = {
    ...call.args,
    model: call.model,
    provider: call.provider,
    accessToken: call.accessToken,
  };
  const options = { fetch: fetchImpl, mappingTtlMs: 0, retryOnError: false };
  if (call.stream) {
    const events: unknown[] = [];
    const stream =
      call.task === "conversational"
        ? tasks.chatCompletionStream(args as never, options)
        : tasks.textGenerationStream(args as never, options);
    for await (const event of stream) events.push(event);
    return events;
  }
  const fn = TASK_FUNCTIONS[call.task];
  if (!fn) throw new Error(`no task function for ${call.task}`);
  return fn(args as never, options as never);
}

/** A recorded stream with an event that is not JSON (the recording has one): the client must say so. */
function hasMalformedEvent(exchange: Exchange): boolean {
  if (!/event-stream/.test(exchange.responseHeaders["content-type"] ?? "")) return false;
  return exchange.responseBody
    .split("\n")
    .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "[DONE]")
    .some((line) => {
      try {
        JSON.parse(line.slice(5));
        return false;
      } catch {
        return true;
      }
    });
}

function recordedErrorText(exchange: Exchange): string | undefined {
  if (exchange.responseBody.startsWith("data:")) {
    const error = JSON.parse(exchange.responseBody.split("\n")[0]!.slice(5)).error;
    return typeof error === "string" ? error : undefined;
  }
  return undefined;
}

describe("replay of the recorded provider traffic", () => {
  it("classifies every recorded exchange: issued, or skipped with a reason", () => {
    expect(calls.length + skipped.length).toBe(traffic.length);
    for (const s of skipped) expect(s.reason.length).toBeGreaterThan(10);
    // Every provider of the spec that the recording covers is replayed at least once.
    const providers = new Set(calls.map((c) => c.provider));
    for (const p of [
      "hf-inference",
      "together",
      "replicate",
      "fal-ai",
      "hyperbolic",
      "openai",
      "sambanova",
      "nebius",
      "novita",
      "black-forest-labs",
      "fireworks-ai",
      "cohere",
      "cerebras",
    ]) {
      expect(providers, p).toContain(p);
    }
  });

  it.each(
    calls.map(
      (c, i) =>
        [
          `${c.exchange.id.slice(0, 8)} ${c.provider} ${c.task} ${c.exchange.url.slice(0, 90)}`,
          c,
          i,
        ] as const,
    ),
  )("%s", async (_name, call, index) => {
    const seen: SeenRequest[] = [];
    let output: unknown;
    let error: unknown;
    try {
      output = await run(call, replayFetch(call, seen, index));
    } catch (e) {
      error = e;
    }
    const main = seen.find((r) => r.method === "POST");
    expect(main?.url).toBe(call.exchange.url);
    if (call.bodyRecorded)
      expect(JSON.parse(String(main?.body))).toEqual(JSON.parse(call.exchange.requestBody));
    const inStreamError = recordedErrorText(call.exchange);
    if (call.exchange.status >= 400) {
      expect(ProviderApiError.isInstance(error), String(error)).toBe(true);
      expect((error as ProviderApiError).status).toBe(call.exchange.status);
      expect((error as ProviderApiError).request.headers.Authorization ?? "").not.toContain("replay");
      if (call.task === "conversational")
        expect(String(error)).toContain("does not seem to support chat completion");
    } else if (hasMalformedEvent(call.exchange)) {
      expect(ProviderOutputError.isInstance(error), String(error)).toBe(true);
      expect(String(error)).toContain("Malformed event in stream");
    } else if (inStreamError) {
      expect(String(error)).toContain(`Error forwarded from backend: ${inStreamError}`);
    } else {
      expect(error).toBeUndefined();
      if (["text-to-image", "text-to-speech", "image-to-image"].includes(call.task))
        expect(output).toBeInstanceOf(Blob);
      else expect(output).toBeDefined();
      if (call.stream) expect((output as unknown[]).length).toBeGreaterThan(0);
    }
  });
});
