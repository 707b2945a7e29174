import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InferenceClient } from "../client.js";
import { InputError, ProviderApiError, RoutingError } from "../errors.js";
import { automaticSpeechRecognition } from "../tasks/automatic-speech-recognition.js";
import { chatCompletion } from "../tasks/chat-completion.js";
import { textClassification } from "../tasks/text-classification.js";
import { textToImage } from "../tasks/text-to-image.js";
import { textToVideo } from "../tasks/text-to-video.js";
import type { Options } from "../types.js";

let sim: ProviderSim;
const messages = [{ role: "user" as const, content: "Hi" }];

beforeAll(async () => {
  sim = await startProviderSim({
    models: [
      {
        id: "routing/chat",
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          cerebras: { status: "staging", providerId: "routing-staging", task: "conversational" },
          together: { status: "live", providerId: "routing/chat-turbo", task: "conversational" },
          groq: { status: "live", providerId: "routing-groq", task: "conversational" },
        },
      },
      {
        id: "routing/cached",
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: "routing/cached", task: "conversational" },
        },
      },
      {
        id: "routing/image",
        pipeline_tag: "text-to-image",
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: "routing/image", task: "text-to-image" },
        },
      },
    ],
  });
});
afterAll(async () => {
  await sim.close();
});

const options = (extra: Options = {}): Options => ({ hubUrl: sim.url, routerUrl: sim.url, ...extra });
const hubCalls = (model: string) => sim.requests.filter((r) => r.path.startsWith(`/api/models/${model}`));

describe("model mapping", () => {
  it("maps the hub id to the provider's id and warns about staging mappings", async () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m) };
    await chatCompletion(
      { model: "routing/chat", provider: "cerebras", accessToken: "hf_x", messages },
      options({ logger, mappingTtlMs: 0 }),
    );
    expect(warnings).toEqual([
      "Model routing/chat is in staging mode for provider cerebras. Meant for test purposes only.",
    ]);
    expect(
      sim.requests.some(
        (r) => r.path === "/cerebras/v1/chat/completions" && r.bodyText.includes("routing-staging"),
      ),
    ).toBe(true);
  });

  it("warns about a staging mapping through the default logger (the console) when none is injected", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await chatCompletion(
        { model: "routing/chat", provider: "cerebras", accessToken: "hf_x", messages },
        options({ mappingTtlMs: 0 }),
      );
      expect(warn).toHaveBeenCalledWith(
        "Model routing/chat is in staging mode for provider cerebras. Meant for test purposes only.",
      );
      warn.mockClear();
      await chatCompletion(
        { model: "routing/chat", provider: "together", accessToken: "hf_x", messages },
        options({ mappingTtlMs: 0 }),
      );
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('"auto" picks the first live provider the client supports', async () => {
    sim.clearRequests();
    await chatCompletion(
      { model: "routing/chat", provider: "auto", accessToken: "hf_x", messages },
      options(),
    );
    expect(sim.requests.some((r) => r.path.startsWith("/together/"))).toBe(true);
  });

  it("names the supported task when the model serves another one", async () => {
    await expect(
      textToImage(
        { model: "routing/chat", provider: "together", accessToken: "hf_x", inputs: "x" },
        options(),
      ),
    ).rejects.toThrow(
      new RoutingError(
        "Model routing/chat is not supported for task text-to-image and provider together. Supported task: conversational.",
      ),
    );
  });

  it("rejects a provider that does not serve the model", async () => {
    await expect(
      chatCompletion({ model: "routing/chat", provider: "nebius", accessToken: "hf_x", messages }, options()),
    ).rejects.toSatisfy(
      (e) => RoutingError.isInstance(e) && String(e).includes("not supported by provider nebius"),
    );
  });

  it("caches mappings for their TTL", async () => {
    sim.clearRequests();
    const args = { model: "routing/cached", provider: "together" as const, accessToken: "hf_x", messages };
    await chatCompletion(args, options({ mappingTtlMs: 150 }));
    await chatCompletion(args, options({ mappingTtlMs: 150 }));
    expect(hubCalls("routing/cached").length).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    await chatCompletion(args, options({ mappingTtlMs: 150 }));
    expect(hubCalls("routing/cached").length).toBe(2);
  });

  it("sends the token to the hub only when it is a hub token", async () => {
    sim.clearRequests();
    await chatCompletion(
      { model: "routing/chat", provider: "together", accessToken: "together-key", messages },
      options({ mappingTtlMs: 0, providerBaseUrls: { together: sim.providerUrl("together") } }),
    );
    expect(hubCalls("routing/chat").every((r) => !r.hadAuth)).toBe(true);
    expect(sim.requests.find((r) => r.path.startsWith("/together/"))?.authScheme).toBe("Bearer");
  });

  it("uses the task's default model from the hub when none is given", async () => {
    sim.clearRequests();
    const output = await textClassification(
      { accessToken: "hf_x", provider: "hf-inference", inputs: "I love it" },
      options(),
    );
    expect(output[0]).toHaveProperty("label");
    expect(sim.requests.some((r) => r.path === "/api/tasks")).toBe(true);
  });

  it('fails with "No default model defined for task ..." when the hub has none', async () => {
    await expect(
      textToVideo({ accessToken: "hf_x", provider: "fal-ai", inputs: "x" }, options({ mappingTtlMs: 0 })),
    ).rejects.toSatisfy(
      (e) =>
        RoutingError.isInstance(e) && String(e).includes("No default model defined for task text-to-video"),
    );
  });
});

describe("headers", () => {
  it("sends no Authorization header without a token, and X-HF-Bill-To when billing an org", async () => {
    sim.clearRequests();
    const error = await chatCompletion(
      { model: "routing/chat", provider: "together", messages },
      options({ billTo: "acme", retryOnError: false }),
    ).catch((e) => e);
    const sent = sim.requests.find((r) => r.path.startsWith("/together/"));
    expect(sent?.hadAuth).toBe(false);
    expect(sent?.headers["x-hf-bill-to"]).toBe("acme");
    expect(ProviderApiError.isInstance(error) ? error.status : 200).toBeGreaterThanOrEqual(200);
  });

  it('adds credentials: "include" only when asked', async () => {
    const seen: RequestInit[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    };
    const args = { model: "routing/chat", provider: "together" as const, accessToken: "hf_x", messages };
    await chatCompletion(args, options({ fetch: spy }));
    expect(seen.every((init) => !("credentials" in init))).toBe(true);
    seen.length = 0;
    await chatCompletion(args, options({ fetch: spy, includeCredentials: true }));
    expect(seen.every((init) => init.credentials === "include")).toBe(true);
  });
});

describe("validation (spec §5)", () => {
  const fail = (promise: Promise<unknown>, message: string) =>
    expect(promise).rejects.toSatisfy((e) => InputError.isInstance(e) && String(e).includes(message));

  it("rejects URL model ids, endpointUrl with a third-party provider, and missing model and task", async () => {
    await fail(chatCompletion({ model: "https://x.y/m", messages }), "Use the endpointUrl option instead");
    await fail(
      chatCompletion({ endpointUrl: "http://127.0.0.1:1", provider: "together", messages }),
      "Cannot use endpointUrl with a third-party provider.",
    );
    const client = new InferenceClient();
    await fail(client.request({ inputs: "x" }), "No model provided, and no task has been specified.");
    await fail(client.request({ inputs: "x", model: "m", provider: "together" }), "Task must be specified");
  });

  it("applies the openai rules", async () => {
    await fail(
      chatCompletion({ provider: "openai", model: "gpt-4o", accessToken: "sk-x", messages }),
      "prefixed by the provider name",
    );
    await fail(
      chatCompletion({ provider: "openai", model: "openai/gpt-4o", accessToken: "hf_x", messages }),
      "hub tokens",
    );
    await fail(
      textToImage({ provider: "openai", model: "openai/dall-e", accessToken: "sk-x", inputs: "x" }),
      "only supports chat completion",
    );
  });

  it("limits text-to-video to the providers that serve it", async () => {
    await fail(
      textToVideo({ provider: "hyperbolic", model: "m", inputs: "x" }),
      "fal-ai, novita, replicate, together, wavespeed",
    );
  });

  it("requires a supported audio content type for fal-ai speech recognition", async () => {
    await fail(
      automaticSpeechRecognition({
        provider: "fal-ai",
        model: "m",
        inputs: new Blob(["x"], { type: "audio/flac" }),
      }),
      "audio/mpeg, audio/mp4, audio/wav, audio/x-wav",
    );
  });
});

describe("endpointUrl", () => {
  it("calls an OpenAI-compatible server directly, with no hub call", async () => {
    sim.clearRequests();
    const client = new InferenceClient("hf_x").endpoint(`${sim.url}/together`);
    const output = await client.chatCompletion({ model: "routing/chat-turbo", messages });
    expect(output.choices.length).toBeGreaterThan(0);
    expect(sim.requests.some((r) => r.path.startsWith("/api/"))).toBe(false);
    expect(sim.requests[0]?.path).toBe("/together/v1/chat/completions");
  });
});
