import { InferenceClient } from "@huggingface/inference";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderSim, startProviderSim } from "./server.js";

/**
 * The public clients the sim stands in front of, unmodified: the official `openai` client pointed at a
 * provider's mount, and `@huggingface/inference` with its hub and router hosts mapped onto the sim through its
 * own `fetch` option (which refuses anything that is not the sim, so nothing reaches the internet).
 */

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim({ jobSteps: 0 });
});
afterAll(() => sim.close());

describe("openai client", () => {
  const client = () =>
    new OpenAI({ apiKey: "hf_openai_client", baseURL: `${sim.url}/together/v1`, maxRetries: 0 });
  const messages = [{ role: "user" as const, content: "Hello" }];

  it("creates chat completions", async () => {
    const completion = await client().chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toContain("Hello");
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("streams, with the usage chunk", async () => {
    const stream = await client().chat.completions.create({
      model: "m",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      usage ??= chunk.usage ?? undefined;
    }
    expect(text).toBe("This is a simulated reply from together (m) to: Hello");
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) });
  });

  it("gets tool calls", async () => {
    const completion = await client().chat.completions.create({
      model: "m",
      messages,
      tools: [
        { type: "function", function: { name: "lookup", parameters: { type: "object", properties: {} } } },
      ],
    });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: "lookup" } });
  });

  it("maps the sim's errors onto its error classes", async () => {
    sim.setFault({ kind: "rate-limit", retryAfterSeconds: 1 });
    await expect(client().chat.completions.create({ model: "m", messages })).rejects.toBeInstanceOf(
      OpenAI.RateLimitError,
    );
    // "hf_" alone is not a valid hub token.
    const badToken = new OpenAI({ apiKey: "hf_", baseURL: `${sim.url}/together/v1`, maxRetries: 0 });
    await expect(badToken.chat.completions.create({ model: "m", messages })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
  });

  it("surfaces an in-stream error event as an error", async () => {
    sim.setFault({ kind: "stream-error", afterChunks: 2, message: "overloaded" });
    const stream = await client().chat.completions.create({ model: "m", messages, stream: true });
    await expect(async () => {
      for await (const _chunk of stream) {
        // drain
      }
    }).rejects.toThrow(/overloaded/);
  });
});

describe("@huggingface/inference client", () => {
  const viaSim: typeof fetch = (input, init) => {
    const url = (typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
      .replace("https://router.huggingface.co", sim.url)
      .replace("https://huggingface.co", sim.url);
    if (!url.startsWith(sim.url)) return Promise.reject(new Error(`Refusing to leave loopback: ${url}`));
    return fetch(url, init);
  };
  const client = new InferenceClient("hf_js_client");
  const options = { fetch: viaSim };

  it("routes chat through the router layout after reading the hub mapping", async () => {
    sim.clearRequests();
    const completion = await client.chatCompletion(
      {
        provider: "together",
        model: "meta-llama/Llama-3.3-70B-Instruct",
        messages: [{ role: "user", content: "Hi" }],
      },
      options,
    );
    expect(completion.model).toBe("meta-llama/Llama-3.3-70B-Instruct-Turbo");
    expect(sim.requests.map((request) => request.path)).toEqual([
      "/api/models/meta-llama/Llama-3.3-70B-Instruct?expand[]=inferenceProviderMapping",
      "/together/v1/chat/completions",
    ]);
  });

  it("runs hf-inference tasks on the routes the client uses today", async () => {
    const labels = await client.textClassification(
      {
        provider: "hf-inference",
        model: "distilbert-base-uncased-finetuned-sst-2-english",
        inputs: "I like you",
      },
      options,
    );
    expect(labels[0]).toEqual({ label: "POSITIVE", score: expect.any(Number) });
    const vector = await client.featureExtraction(
      { provider: "hf-inference", model: "facebook/bart-base", inputs: "hello" },
      options,
    );
    expect(vector).toHaveLength(16);
    const generated = await client.textGeneration(
      { provider: "hf-inference", model: "gpt2", inputs: "Hello" },
      options,
    );
    expect(generated.generated_text).toContain("Hello");
    // Zero-shot classification in today's shape, which the client checks and passes on.
    const zeroShot = await client.zeroShotClassification(
      {
        provider: "hf-inference",
        model: "facebook/bart-large-mnli",
        inputs: "I want my money back",
        parameters: { candidate_labels: ["refund", "legal", "faq"] },
      },
      options,
    );
    expect(zeroShot.map((entry) => entry.label)).toEqual(["refund", "legal", "faq"]);
    expect(zeroShot[0]?.score).toEqual(expect.any(Number));
  });

  it("gets an image from a Replicate prediction", async () => {
    const image = await client.textToImage(
      { provider: "replicate", model: "black-forest-labs/FLUX.1-schnell", inputs: "a cat" },
      { ...options, outputType: "blob" },
    );
    expect(image.size).toBeGreaterThan(0);
  });

  it("transcribes through fal-ai with an audio data URL", async () => {
    const audio = new Blob([new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0])], { type: "audio/wav" });
    const result = await client.automaticSpeechRecognition(
      { provider: "fal-ai", model: "openai/whisper-large-v3", data: audio },
      options,
    );
    expect(result.text).toBe("This is a simulated transcript.");
  });
});
