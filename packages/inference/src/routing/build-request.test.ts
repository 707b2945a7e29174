import { describe, expect, it } from "vitest";
import { getProviderConfig, INFERENCE_PROVIDERS, providerTaskSupported } from "../providers/index.js";
import { buildRequest, tokenKind } from "./build-request.js";

const chatArgs = { messages: [{ role: "user", content: "hi" }], max_tokens: 5 };

describe("buildRequest", () => {
  it("routes hub tokens through the router with the provider's own path", () => {
    const req = buildRequest({
      provider: "together",
      model: "meta-llama/Llama-3.3-70B-Instruct",
      providerModelId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
      task: "conversational",
      args: chatArgs,
      accessToken: "hf_abc",
    });
    expect(req.url).toBe("https://router.huggingface.co/together/v1/chat/completions");
    expect(req.headers.Authorization).toBe("Bearer hf_abc");
    expect(req.direct).toBe(false);
    expect(req.body).toEqual({ ...chatArgs, model: "meta-llama/Llama-3.3-70B-Instruct-Turbo" });
  });

  it("sends provider keys straight to the provider with its own auth header", () => {
    const fal = buildRequest({
      provider: "fal-ai",
      providerModelId: "fal-ai/flux/schnell",
      task: "text-to-image",
      args: { inputs: "a cat" },
      accessToken: "fal-key",
    });
    expect(fal.url).toBe("https://fal.run/fal-ai/flux/schnell");
    expect(fal.headers.Authorization).toBe("Key fal-key");
    expect(fal.direct).toBe(true);
    const bfl = buildRequest({
      provider: "black-forest-labs",
      providerModelId: "flux-dev",
      task: "text-to-image",
      args: { inputs: "a cat" },
      accessToken: "bfl-key",
    });
    expect(bfl.url).toBe("https://api.us1.bfl.ai/v1/flux-dev");
    expect(bfl.headers["X-Key"]).toBe("bfl-key");
    expect(bfl.headers.Authorization).toBeUndefined();
  });

  it("sends no Authorization header without a token, and bills to an org when asked", () => {
    const req = buildRequest({
      provider: "hf-inference",
      model: "gpt2",
      task: "text-generation",
      args: { inputs: "x" },
      billTo: "my-org",
    });
    expect(req.headers.Authorization).toBeUndefined();
    expect(req.headers["X-HF-Bill-To"]).toBe("my-org");
    expect(req.url).toBe("https://router.huggingface.co/hf-inference/models/gpt2");
  });

  it("uses the hf-inference layouts: models/, pipeline/ and the chat route", () => {
    const base = { provider: "hf-inference" as const, model: "org/m", accessToken: "hf_x" };
    expect(buildRequest({ ...base, task: "feature-extraction", args: { inputs: "a" } }).url).toBe(
      "https://router.huggingface.co/hf-inference/pipeline/feature-extraction/org/m",
    );
    expect(buildRequest({ ...base, task: "sentence-similarity", args: { inputs: {} } }).url).toBe(
      "https://router.huggingface.co/hf-inference/pipeline/sentence-similarity/org/m",
    );
    expect(buildRequest({ ...base, task: "conversational", args: chatArgs }).url).toBe(
      "https://router.huggingface.co/hf-inference/models/org/m/v1/chat/completions",
    );
  });

  it("sends file inputs raw, as binary bodies with their content type", () => {
    const blob = new Blob([new Uint8Array([1, 2])], { type: "image/png" });
    const req = buildRequest({
      provider: "hf-inference",
      model: "google/vit",
      task: "image-classification",
      args: { inputs: blob },
    });
    expect(req.bodyKind).toBe("binary");
    expect(req.body).toBe(blob);
    expect(req.headers["Content-Type"]).toBe("image/png");
  });

  it("points direct calls at a base URL override (simulator) and keeps the router layout", () => {
    const req = buildRequest({
      provider: "together",
      providerModelId: "m",
      task: "conversational",
      args: chatArgs,
      accessToken: "tgp_key",
      providerBaseUrls: { together: "http://127.0.0.1:1234/together/" },
    });
    expect(req.url).toBe("http://127.0.0.1:1234/together/v1/chat/completions");
  });

  it("appends the chat route to a bare endpoint URL", () => {
    const req = buildRequest({
      provider: "hf-inference",
      task: "conversational",
      args: chatArgs,
      endpointUrl: "http://localhost:8080/",
      stream: true,
    });
    expect(req.url).toBe("http://localhost:8080/v1/chat/completions");
    expect(req.body).toEqual({ ...chatArgs, stream: true, model: "tgi" });
  });

  it("takes an OpenAI-style base ending in /v1, and a full chat route, as they are", () => {
    const url = (endpointUrl: string) =>
      buildRequest({ provider: "hf-inference", task: "conversational", args: chatArgs, endpointUrl }).url;
    expect(url("http://localhost:8080/v1")).toBe("http://localhost:8080/v1/chat/completions");
    expect(url("http://localhost:8080/v1/")).toBe("http://localhost:8080/v1/chat/completions");
    expect(url("http://localhost:8080/v1/chat/completions")).toBe(
      "http://localhost:8080/v1/chat/completions",
    );
  });

  it("passes OpenAI chat features through: tools, tool results, response_format, stream usage", () => {
    const args = {
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "weather", parameters: { type: "object" } } }],
      tool_choice: "auto",
      response_format: { type: "json_schema", json_schema: { name: "w", schema: { type: "object" } } },
      stream_options: { include_usage: true },
    };
    const req = buildRequest({
      provider: "groq",
      providerModelId: "llama",
      task: "conversational",
      args,
      accessToken: "gsk_x",
      stream: true,
    });
    expect(req.url).toBe("https://api.groq.com/openai/v1/chat/completions");
    expect(req.body).toEqual({ ...args, stream: true, model: "llama" });
  });

  it("classifies tokens", () => {
    expect(tokenKind(undefined)).toBe("none");
    expect(tokenKind("hf_x")).toBe("hub");
    expect(tokenKind("sk-x")).toBe("provider");
  });
});

describe("provider registry", () => {
  it("describes every provider with a base URL, key variable and at least one task", () => {
    for (const provider of INFERENCE_PROVIDERS) {
      const info = getProviderConfig(provider);
      expect(info.baseUrl).toMatch(/^https:\/\//);
      expect(info.apiKeyEnv).toMatch(/^[A-Z_]+$/);
      expect(info.tasks.length).toBeGreaterThan(0);
    }
    expect(getProviderConfig("together").apiKeyEnv).toBe("TOGETHER_API_KEY");
    expect(providerTaskSupported("openai", "conversational")).toBe(true);
    expect(providerTaskSupported("openai", "text-to-image")).toBe(false);
  });
});
