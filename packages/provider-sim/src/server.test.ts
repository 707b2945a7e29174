import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderSim, startProviderSim } from "./server.js";
import { jsonHeaders, postJson, readSseData } from "./test-support/sse.js";

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim();
});
afterAll(() => sim.close());

const chatBody = {
  model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
  messages: [{ role: "user", content: "Hi there" }],
};

describe("OpenAI-compatible chat", () => {
  it("answers a chat completion with the OpenAI shape", async () => {
    const response = await postJson(`${sim.url}/together/v1/chat/completions`, chatBody);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^sim-\d+$/);
    // Every answer says it is the simulator's, for the JSON ones that carry no marked file.
    expect(response.headers.get("x-provider-sim")).toBe("1");
    const body = await response.json();
    // Built on Together's recorded reply: its `seed` and its `eos` finish reason included.
    expect(body).toMatchObject({
      object: "chat.completion",
      model: chatBody.model,
      choices: [{ index: 0, message: { role: "assistant" }, finish_reason: "eos", seed: expect.any(Number) }],
      usage: { prompt_tokens: 2 },
    });
    expect(body.choices[0].message.content).toContain("Hi there");
    expect(typeof body.created).toBe("number");
    expect(typeof body.id).toBe("string");
  });

  it("streams chunks, a usage chunk when asked, and [DONE]", async () => {
    const response = await postJson(`${sim.url}/groq/openai/v1/chat/completions`, {
      ...chatBody,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readSseData(response);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe(
      "This is a simulated reply from groq (meta-llama/Llama-3.3-70B-Instruct-Turbo) to: Hi there",
    );
    expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: expect.any(Number) } });
  });

  it("streams in the provider's recorded chunk shapes", async () => {
    const response = await postJson(`${sim.url}/novita/v3/openai/chat/completions`, {
      ...chatBody,
      stream: true,
    });
    const events = await readSseData(response);
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    expect(chunks.every((chunk) => chunk.choices[0].content_filter_results)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0].delta.content ?? "").join("")).toBe(
      `This is a simulated reply from novita (${chatBody.model}) to: Hi there`,
    );
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it("streams as many chunks as x-sim-stream-chunks asks for", async () => {
    const response = await postJson(
      `${sim.url}/openai/v1/chat/completions`,
      { ...chatBody, stream: true },
      jsonHeaders(undefined, { "x-sim-stream-chunks": "500" }),
    );
    const events = await readSseData(response);
    // role chunk + 500 content chunks + finish chunk + [DONE]
    expect(events).toHaveLength(503);
  });

  it("answers tools with a tool call", async () => {
    const response = await postJson(`${sim.url}/nebius/v1/chat/completions`, {
      ...chatBody,
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
    });
    const body = await response.json();
    expect(body.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { tool_calls: [{ type: "function", function: { name: "get_weather" } }] },
    });
  });

  it("serves completions, images and embeddings where the provider has them", async () => {
    const completion = await postJson(`${sim.url}/together/v1/completions`, {
      model: "m",
      prompt: "Paris is",
    });
    expect((await completion.json()).choices[0].text).toContain("Paris is");
    const image = await postJson(`${sim.url}/nebius/v1/images/generations`, { model: "m", prompt: "a cat" });
    const b64 = (await image.json()).data[0].b64_json as string;
    expect(Buffer.from(b64, "base64").subarray(1, 4).toString()).toBe("PNG");
    const embedding = await postJson(`${sim.url}/sambanova/v1/embeddings`, { model: "m", input: ["a", "b"] });
    expect((await embedding.json()).data).toHaveLength(2);
    const missing = await postJson(`${sim.url}/cerebras/v1/completions`, { model: "m", prompt: "x" });
    expect(missing.status).toBe(404);
  });
});

describe("hf-inference", () => {
  it("runs the model's pipeline on /models/{model}", async () => {
    const response = await postJson(`${sim.url}/hf-inference/models/facebook/bart-large-mnli`, {
      inputs: "I want my money back",
      parameters: { candidate_labels: ["refund", "legal", "faq"] },
    });
    // Today's shape: one {label, score} per candidate, best first.
    const result = (await response.json()) as Array<{ label: string; score: number }>;
    expect(result.map((entry) => entry.label)).toEqual(["refund", "legal", "faq"]);
    expect(result.reduce((sum, entry) => sum + entry.score, 0)).toBeCloseTo(1);
  });

  it("runs a named task on /pipeline/{task}/{model}", async () => {
    const response = await postJson(
      `${sim.url}/hf-inference/pipeline/feature-extraction/facebook/bart-base`,
      {
        inputs: ["one", "two"],
      },
    );
    const vectors = await response.json();
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(16);
  });

  it("returns binary media for text-to-image and text-to-speech", async () => {
    const image = await postJson(`${sim.url}/hf-inference/models/stabilityai/stable-diffusion-2`, {
      inputs: "a fox",
    });
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await image.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));
    const audio = await postJson(`${sim.url}/hf-inference/models/espnet/kan-bayashi_ljspeech_vits`, {
      inputs: "hi",
    });
    expect(audio.headers.get("content-type")).toBe("audio/flac");
  });

  it("accepts binary uploads for image tasks", async () => {
    const response = await fetch(`${sim.url}/hf-inference/models/google/vit-base-patch16-224`, {
      method: "POST",
      headers: { authorization: "Bearer hf_x", "content-type": "image/png" },
      body: new Uint8Array([137, 80, 78, 71, 1, 2, 3]),
    });
    const labels = await response.json();
    expect(labels[0]).toEqual({ score: expect.any(Number), label: expect.any(String) });
  });

  it("serves TGI chat on /models/{model}/v1/chat/completions and refuses non-chat models", async () => {
    const ok = await postJson(
      `${sim.url}/hf-inference/models/mistralai/Mistral-7B-Instruct-v0.2/v1/chat/completions`,
      {
        model: "tgi",
        messages: [{ role: "user", content: "Hello" }],
      },
    );
    expect((await ok.json()).model).toBe("mistralai/Mistral-7B-Instruct-v0.2");
    const refused = await postJson(`${sim.url}/hf-inference/models/google/gemma-2b/v1/chat/completions`, {
      model: "tgi",
      messages: [{ role: "user", content: "Something new" }],
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: "Template error: template not found",
      error_type: "template_error",
    });
  });

  it("answers 404 with the recorded shape for unknown models", async () => {
    const response = await postJson(`${sim.url}/hf-inference/models/nobody/nothing`, { inputs: "x" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Model nobody/nothing does not exist" });
  });

  it("streams TGI tokens for text-generation", async () => {
    const response = await postJson(`${sim.url}/hf-inference/models/gpt2`, { inputs: "Once", stream: true });
    const events = (await readSseData(response)).map((event) => JSON.parse(event));
    expect(events.at(-1).generated_text).toBe(" and the simulator carried on.");
    expect(events[0].token).toMatchObject({ text: " and", special: false });
  });
});

describe("fake hub API", () => {
  it("returns the provider mapping as an object keyed by provider", async () => {
    const response = await fetch(
      `${sim.url}/api/models/black-forest-labs/FLUX.1-dev?expand[]=inferenceProviderMapping`,
    );
    const body = await response.json();
    expect(Object.keys(body)).toEqual(["_id", "id", "inferenceProviderMapping"]);
    expect(body.inferenceProviderMapping["fal-ai"]).toEqual({
      status: "live",
      providerId: "fal-ai/flux/dev",
      task: "text-to-image",
    });
  });

  it("returns the array shape on request, and takes models from options", async () => {
    const custom = await startProviderSim({
      models: [
        {
          id: "me/tiny",
          pipeline_tag: "text-generation",
          hfInference: false,
          inferenceProviderMapping: {
            together: { status: "staging", providerId: "tiny-1", task: "conversational" },
          },
        },
      ],
    });
    try {
      const response = await fetch(`${custom.url}/api/models/me/tiny?expand[]=inferenceProviderMapping`, {
        headers: { "x-sim-mapping-shape": "array" },
      });
      expect((await response.json()).inferenceProviderMapping).toEqual([
        { provider: "together", status: "staging", providerId: "tiny-1", task: "conversational" },
      ]);
    } finally {
      await custom.close();
    }
  });

  it("rejects non-hub tokens and unknown repositories", async () => {
    const wrong = await fetch(`${sim.url}/api/models/gpt2`, { headers: { authorization: "Bearer sk-123" } });
    expect(wrong.status).toBe(401);
    const missing = await fetch(`${sim.url}/api/models/nobody/nothing`);
    expect(missing.status).toBe(404);
  });

  it("lists tasks with default models, and none for tasks nobody serves", async () => {
    const tasks = await (await fetch(`${sim.url}/api/tasks`)).json();
    expect(tasks["text-classification"].models[0].id).toBe("distilbert-base-uncased-finetuned-sst-2-english");
    expect(tasks["depth-estimation"].models).toEqual([]);
  });
});

describe("options", () => {
  it("adds latencyMs to every provider reply and coalesces stream writes on request", async () => {
    const slow = await startProviderSim({ latencyMs: 120, streamBatchBytes: 4096 });
    try {
      const started = performance.now();
      const response = await postJson(
        `${slow.url}/together/v1/chat/completions`,
        { ...chatBody, stream: true },
        jsonHeaders(undefined, { "x-sim-stream-chunks": "200" }),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
      expect(await readSseData(response)).toHaveLength(203);
    } finally {
      await slow.close();
    }
  });

  it("keeps idle connections 5 s by default and keepAliveMs when given, and says so to clients", async () => {
    const keeping = await startProviderSim({ keepAliveMs: 65_000 });
    try {
      const kept = await postJson(`${keeping.url}/together/v1/chat/completions`, chatBody, jsonHeaders());
      expect(kept.headers.get("keep-alive")).toBe("timeout=65");
      await kept.arrayBuffer();
      const plain = await postJson(`${sim.url}/together/v1/chat/completions`, chatBody, jsonHeaders());
      expect(plain.headers.get("keep-alive")).toBe("timeout=5");
      await plain.arrayBuffer();
    } finally {
      await keeping.close();
    }
  });
});

describe("request log", () => {
  it("records method, path, redacted headers and body, and can be cleared", async () => {
    sim.clearRequests();
    await postJson(`${sim.url}/together/v1/chat/completions`, chatBody, jsonHeaders("hf_secret"));
    expect(sim.requests).toHaveLength(1);
    const [entry] = sim.requests;
    expect(entry).toMatchObject({
      method: "POST",
      path: "/together/v1/chat/completions",
      provider: "together",
      hadAuth: true,
      authScheme: "Bearer hf_",
      json: chatBody,
    });
    expect(entry!.headers.authorization).toBe("[redacted]");
    expect(entry!.requestId).toBe(`sim-${entry!.seq}`);
    expect(JSON.stringify(entry)).not.toContain("hf_secret");

    const viaAdmin = await (await fetch(`${sim.url}/__sim/requests`)).json();
    expect(viaAdmin).toHaveLength(1);
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    expect(sim.requests).toHaveLength(0);
    expect((await (await fetch(`${sim.url}/__sim/health`)).json()).status).toBe("ok");
    const providers = await (await fetch(`${sim.url}/__sim/providers`)).json();
    expect(providers.find((provider: { name: string }) => provider.name === "groq")).toMatchObject({
      url: `${sim.url}/groq`,
      realBaseUrl: "https://api.groq.com",
      routes: ["POST /openai/v1/chat/completions"],
    });
  });
});
