import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  InferenceError,
  JobFailedError,
  NetworkError,
  ProviderApiError,
  ProviderOutputError,
  StreamError,
  TimeoutError,
} from "./errors.js";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "./http/attempt-watchdog.js";
import { chatCompletion, chatCompletionStream } from "./tasks/chat-completion.js";
import { textToImage } from "./tasks/text-to-image.js";
import { textToVideo } from "./tasks/text-to-video.js";
import type { Options } from "./types.js";

/**
 * Faults injected by provider-sim: every failure ends in a typed InferenceError, retries happen where the
 * policy says, and an abort at any stage ends the call promptly (nothing hangs, streams are released).
 */
let sim: ProviderSim;

const CHAT_MODEL = "faults/chat";
const VIDEO_MODEL = "faults/video";
const IMAGE_MODEL = "faults/image";

beforeAll(async () => {
  sim = await startProviderSim({
    jobSteps: 1,
    streamChunks: 20,
    models: [
      {
        id: CHAT_MODEL,
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: "faults/chat-turbo", task: "conversational" },
        },
      },
      {
        id: VIDEO_MODEL,
        pipeline_tag: "text-to-video",
        hfInference: false,
        inferenceProviderMapping: {
          "fal-ai": { status: "live", providerId: "fal-ai/faults-video", task: "text-to-video" },
        },
      },
      {
        id: IMAGE_MODEL,
        pipeline_tag: "text-to-image",
        hfInference: false,
        inferenceProviderMapping: {
          "black-forest-labs": { status: "live", providerId: "faults-flux", task: "text-to-image" },
          together: { status: "live", providerId: "faults/image", task: "text-to-image" },
        },
      },
    ],
  });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  sim.setFault(null);
  sim.clearRequests();
});

const options = (extra: Options = {}): Options => ({
  hubUrl: sim.url,
  routerUrl: sim.url,
  retry: { baseDelayMs: 10, maxAttempts: 3 },
  ...extra,
});
const chatArgs = {
  model: CHAT_MODEL,
  provider: "together" as const,
  accessToken: "hf_faults",
  messages: [{ role: "user" as const, content: "Hello" }],
};
const chatCalls = () => sim.requests.filter((r) => r.path.startsWith("/together/v1/chat/completions")).length;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(InferenceError.isInstance(error), `untyped failure: ${error}`).toBe(true);
    return error;
  }
  throw new Error("expected the call to fail");
}

async function drain(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("retries", () => {
  it("retries a burst of 503s and succeeds", async () => {
    sim.setFault({ kind: "status", status: 503, times: 2, provider: "together" });
    const output = await chatCompletion(chatArgs, options());
    expect(output.choices.length).toBeGreaterThan(0);
    expect(chatCalls()).toBe(3);
  });

  it("does not retry when retries are disabled, and says the 503 was retryable", async () => {
    sim.setFault({ kind: "status", status: 503, times: 1, provider: "together" });
    const error = (await failure(
      chatCompletion(chatArgs, options({ retryOnError: false })),
    )) as ProviderApiError;
    expect(ProviderApiError.isInstance(error)).toBe(true);
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(true);
    expect(error.provider).toBe("together");
    expect(error.request.headers.Authorization).toBe("Bearer [redacted]");
    expect(chatCalls()).toBe(1);
  });

  it("gives up after the bounded number of attempts", async () => {
    sim.setFault({ kind: "status", status: 503, times: Number.POSITIVE_INFINITY, provider: "together" });
    const error = await failure(chatCompletion(chatArgs, options()));
    expect(ProviderApiError.isInstance(error) && error.status === 503).toBe(true);
    expect(chatCalls()).toBe(3);
  });

  it("does not retry a 400", async () => {
    sim.setFault({ kind: "status", status: 400, times: 1, provider: "together" });
    const error = await failure(chatCompletion(chatArgs, options()));
    expect(ProviderApiError.isInstance(error) && error.status === 400 && !error.retryable).toBe(true);
    expect(String(error)).toContain("does not seem to support chat completion");
    expect(chatCalls()).toBe(1);
  });

  it("honours Retry-After on a 429", async () => {
    sim.setFault({ kind: "rate-limit", retryAfterSeconds: 1, provider: "together" });
    const started = Date.now();
    const output = await chatCompletion(chatArgs, options());
    expect(output.choices.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(chatCalls()).toBe(2);
  });

  it("retries a dropped connection, and reports a NetworkError when it keeps dropping", async () => {
    sim.setFault({ kind: "drop-connection", times: 1, provider: "together" });
    expect((await chatCompletion(chatArgs, options())).choices.length).toBeGreaterThan(0);
    sim.setFault({ kind: "drop-connection", times: Number.POSITIVE_INFINITY, provider: "together" });
    expect(NetworkError.isInstance(await failure(chatCompletion(chatArgs, options())))).toBe(true);
  });
});

describe("timeouts", () => {
  it("a slow answer hits the per-attempt timeout (retried, then TimeoutError)", async () => {
    sim.setFault({ kind: "delay", ms: 1500, times: Number.POSITIVE_INFINITY, provider: "together" });
    const started = Date.now();
    const error = await failure(
      chatCompletion(chatArgs, options({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 10 } })),
    );
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("without a timeout of its own, each attempt still has the default one", async () => {
    vi.useFakeTimers();
    try {
      // Fresh modules: the default timeout's shared timer, armed by earlier tests, is a real one.
      vi.resetModules();
      const fresh = await import("./tasks/chat-completion.js");
      // A provider that never answers: the attempt is given up at the default timeout, not aborted.
      let cancelled = false;
      let answerLate: (response: Response) => void = () => {};
      const hung: typeof fetch = () =>
        new Promise((resolve) => {
          answerLate = resolve;
        });
      const call = fresh.chatCompletion(
        { ...chatArgs, accessToken: "sk-provider-key" },
        { fetch: hung, retryOnError: false },
      );
      const settled = call.then(
        () => "answered",
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS - 1);
      expect(await Promise.race([settled, Promise.resolve("pending")])).toBe("pending");
      await vi.advanceTimersByTimeAsync(2);
      expect(TimeoutError.isInstance(await settled)).toBe(true);
      // An answer after the timeout is discarded: its body is cancelled, not left to hold the connection.
      const late = new ReadableStream({
        cancel() {
          cancelled = true;
        },
      });
      answerLate(new Response(late));
      await vi.advanceTimersByTimeAsync(1);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an attempt past the default timeout is retried, and only its retry's answer is returned", async () => {
    vi.useFakeTimers();
    try {
      vi.resetModules();
      const fresh = await import("./tasks/chat-completion.js");
      const completion = {
        id: "c",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "second" } }],
      };
      let lateCancelled = false;
      let answerFirst: (response: Response) => void = () => {};
      let attempts = 0;
      const firstHangs: typeof fetch = () => {
        attempts++;
        if (attempts === 1) return new Promise((resolve) => (answerFirst = resolve));
        return Promise.resolve(Response.json(completion));
      };
      // An endpoint: no hub lookup, so every fetch is an attempt of the chat request.
      const call = fresh.chatCompletion(
        { endpointUrl: "http://127.0.0.1:9", model: "m", messages: chatArgs.messages },
        { fetch: firstHangs, retry: { baseDelayMs: 1, maxDelayMs: 1 } },
      );
      await vi.advanceTimersByTimeAsync(DEFAULT_ATTEMPT_TIMEOUT_MS + 10);
      expect((await call).choices[0]?.message.content).toBe("second");
      expect(attempts).toBe(2);
      // The first attempt's late answer (a retryable 503) is discarded: it does not start another attempt.
      const lateBody = new ReadableStream({
        cancel() {
          lateCancelled = true;
        },
      });
      answerFirst(new Response(lateBody, { status: 503 }));
      await vi.advanceTimersByTimeAsync(1);
      expect(lateCancelled).toBe(true);
      expect(attempts).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a slow first attempt is retried and the second succeeds", async () => {
    sim.setFault({ kind: "delay", ms: 1500, times: 1, provider: "together" });
    const output = await chatCompletion(chatArgs, options({ timeoutMs: 300 }));
    expect(output.choices.length).toBeGreaterThan(0);
  });

  it("the overall timeout bounds the whole call", async () => {
    sim.setFault({ kind: "delay", ms: 3000, times: 1, provider: "together" });
    const started = Date.now();
    const error = await failure(chatCompletion(chatArgs, options({ totalTimeoutMs: 300 })));
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("streams", () => {
  it("a connection dropped mid-stream is a StreamError after the events already received", async () => {
    sim.setFault({ kind: "drop-stream", afterChunks: 3, provider: "together" });
    const events: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const event of chatCompletionStream(chatArgs, options())) events.push(event);
      })(),
    );
    expect(StreamError.isInstance(error)).toBe(true);
    expect(events.length).toBe(3);
  });

  it("a malformed event is a ProviderOutputError", async () => {
    sim.setFault({ kind: "malformed-sse", afterChunks: 1, provider: "together" });
    expect(
      ProviderOutputError.isInstance(await failure(drain(chatCompletionStream(chatArgs, options())))),
    ).toBe(true);
  });

  it("an in-stream error is forwarded", async () => {
    sim.setFault({ kind: "stream-error", afterChunks: 1, message: "model overloaded", provider: "together" });
    const error = await failure(drain(chatCompletionStream(chatArgs, options())));
    expect(String(error)).toContain("Error forwarded from backend");
  });

  it("a consumer that stops early releases the stream", async () => {
    for await (const _event of chatCompletionStream(chatArgs, options())) break;
    await waitFor(() => sim.activeStreams === 0);
  });
});

describe("jobs", () => {
  const video = {
    model: VIDEO_MODEL,
    provider: "fal-ai" as const,
    accessToken: "hf_faults",
    inputs: "a cat",
  };
  const image = {
    model: IMAGE_MODEL,
    provider: "black-forest-labs" as const,
    accessToken: "hf_faults",
    inputs: "a cat",
  };

  it("a fal.ai queue job that fails is a JobFailedError", async () => {
    sim.setFault({ kind: "job-fails", message: "GPU on fire", provider: "fal-ai" });
    const error = await failure(textToVideo(video, options()));
    expect(JobFailedError.isInstance(error)).toBe(true);
    expect(String(error)).toContain("GPU on fire");
  });

  it("a fal.ai queue job that never finishes ends at the job deadline", async () => {
    sim.setFault({ kind: "job-never-finishes", provider: "fal-ai" });
    const started = Date.now();
    const error = await failure(textToVideo(video, options({ jobDeadlineMs: 1200 })));
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("a Black Forest Labs job that fails is a JobFailedError", async () => {
    sim.setFault({ kind: "job-fails", provider: "black-forest-labs" });
    expect(JobFailedError.isInstance(await failure(textToImage(image, options())))).toBe(true);
  });
});

describe("abort at every stage", () => {
  const abortAfter = (ms: number) => AbortSignal.timeout(ms);
  async function aborted(run: (signal: AbortSignal) => Promise<unknown>, ms: number): Promise<void> {
    const started = Date.now();
    const error = await failure(run(abortAfter(ms)));
    // AbortSignal.timeout aborts with a TimeoutError reason, but it is the caller's signal: an AbortError.
    expect(AbortError.isInstance(error), String(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(ms + 700);
  }

  it("before anything is sent", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(chatCompletion(chatArgs, options({ signal: controller.signal })));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(sim.requests.length).toBe(0);
  });

  it("during the hub mapping call", async () => {
    sim.setFault({ kind: "delay", ms: 3000, provider: "hub" });
    await aborted((signal) => chatCompletion(chatArgs, options({ signal, mappingTtlMs: 0 })), 150);
  });

  it("while waiting for the provider's answer", async () => {
    sim.setFault({ kind: "delay", ms: 3000, provider: "together" });
    await aborted((signal) => chatCompletion(chatArgs, options({ signal })), 150);
  });

  it("during a retry wait", async () => {
    sim.setFault({ kind: "rate-limit", retryAfterSeconds: 5, provider: "together" });
    await aborted((signal) => chatCompletion(chatArgs, options({ signal })), 200);
  });

  it("in the middle of a stream", async () => {
    const controller = new AbortController();
    const error = await failure(
      (async () => {
        for await (const _event of chatCompletionStream(chatArgs, {
          ...options(),
          signal: controller.signal,
        })) {
          controller.abort();
        }
      })(),
    );
    expect(AbortError.isInstance(error)).toBe(true);
    await waitFor(() => sim.activeStreams === 0);
  });

  it("while polling a job", async () => {
    sim.setFault({ kind: "job-never-finishes", provider: "fal-ai" });
    const video = {
      model: VIDEO_MODEL,
      provider: "fal-ai" as const,
      accessToken: "hf_faults",
      inputs: "a cat",
    };
    await aborted((signal) => textToVideo(video, options({ signal })), 800);
  });

  it("while downloading the media", async () => {
    sim.setFault({ kind: "delay", ms: 3000, provider: "media" });
    const image = {
      model: IMAGE_MODEL,
      provider: "black-forest-labs" as const,
      accessToken: "hf_faults",
      inputs: "a cat",
    };
    await aborted((signal) => textToImage(image, options({ signal })), 1500);
  });
});
