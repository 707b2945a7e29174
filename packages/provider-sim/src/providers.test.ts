import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_NAMES } from "./providers/index.js";
import { type ProviderSim, startProviderSim } from "./server.js";
import { PROVIDER_SAMPLES } from "./test-support/provider-samples.js";
import { HUB_TOKEN } from "./test-support/sse.js";

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim({ jobSteps: 0 });
});
afterAll(() => sim.close());

function call(provider: string, path: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${sim.url}/${provider}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const hub = { authorization: `Bearer ${HUB_TOKEN}` };

it("has a contract sample for every provider it serves", () => {
  expect(PROVIDER_SAMPLES.map((sample) => sample.provider).sort()).toEqual([...PROVIDER_NAMES].sort());
});

describe.each(PROVIDER_SAMPLES)("$provider", (sample) => {
  it("answers a valid call through the router layout (hub token)", async () => {
    const response = await call(sample.provider, sample.path, sample.body, hub);
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("content-type")).toMatch(/json/);
  });

  it("answers a valid call with the provider's own credential header", async () => {
    const response = await call(sample.provider, sample.path, sample.body, sample.ownAuth);
    if (sample.provider === "hf-inference") expect(response.status).toBe(401);
    else expect(response.status).toBeLessThan(300);
  });

  it("rejects a call without credentials, in the provider's error shape", async () => {
    const response = await call(sample.provider, sample.path, sample.body, {});
    expect([401, 403]).toContain(response.status);
    const body = await response.json();
    expect(body.error ?? body.detail).toBeTruthy();
  });

  it("rejects another provider's credential scheme and malformed hub tokens", async () => {
    const foreign: Record<string, string> = sample.ownAuth["x-key"]
      ? { authorization: "Bearer key" }
      : { "x-key": "key" };
    expect([401, 403]).toContain((await call(sample.provider, sample.path, sample.body, foreign)).status);
    const badHubToken = { authorization: "Bearer hf_" };
    expect((await call(sample.provider, sample.path, sample.body, badHubToken)).status).toBe(401);
  });

  it(`rejects a body without its required field`, async () => {
    const { [sample.requiredField]: _removed, ...body } = sample.body;
    const response = await call(sample.provider, sample.path, body, hub);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("rejects an unknown route and a wrong method", async () => {
    const unknown = await fetch(
      `${sim.url}/${sample.provider}${sample.unknownPath ?? "/no/such/route/here"}`,
      {
        headers: hub,
      },
    );
    expect([404, 405]).toContain(unknown.status);
    const wrongMethod = await fetch(`${sim.url}/${sample.provider}${sample.path}`, {
      method: "DELETE",
      headers: hub,
    });
    expect([404, 405]).toContain(wrongMethod.status);
  });
});

describe("auth policy", () => {
  it("accepts only the configured keys for a provider", async () => {
    const strict = await startProviderSim({ providerKeys: { together: ["together-key"] } });
    try {
      const sample = PROVIDER_SAMPLES.find((entry) => entry.provider === "together")!;
      const post = (key: string) =>
        fetch(`${strict.url}/together${sample.path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(sample.body),
        });
      expect((await post("together-key")).status).toBe(200);
      const wrong = await post("other-key");
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error).toMatchObject({
        code: "invalid_api_key",
        type: "invalid_request_error",
      });
    } finally {
      await strict.close();
    }
  });

  it("accepts only the configured hub tokens when given", async () => {
    const strict = await startProviderSim({ hubTokens: ["hf_only"] });
    try {
      const sample = PROVIDER_SAMPLES[0]!;
      const url = `${strict.url}/${sample.provider}${sample.path}`;
      const post = (token: string) =>
        fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(sample.body),
        });
      expect((await post("hf_only")).status).toBe(200);
      expect((await post("hf_other")).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe("required fields, as each provider reports them", () => {
  it("OpenAI: you must provide a model parameter", async () => {
    const response = await call(
      "openai",
      "/v1/chat/completions",
      { messages: [{ role: "user", content: "x!" }] },
      hub,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("you must provide a model parameter");
  });

  it("Hyperbolic: FastAPI 422 naming the field", async () => {
    const response = await call("hyperbolic", "/v1/chat/completions", { model: "m", prompt: "x" }, hub);
    expect(response.status).toBe(422);
    expect((await response.json()).detail[0]).toMatchObject({ type: "missing", loc: ["body", "messages"] });
  });

  it("Together: Invalid request with param", async () => {
    const response = await call("together", "/v1/images/generations", { prompt: "a tortoise" }, hub);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ message: "Invalid request", param: "model" });
  });

  it("hf-inference TGI: text/plain 422 on a missing field", async () => {
    const response = await call(
      "hf-inference",
      "/models/mistralai/Mistral-7B-Instruct-v0.2/v1/chat/completions",
      { model: "tgi" },
      hub,
    );
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(
      /^Failed to deserialize the JSON body into the target type: missing field `messages`/,
    );
  });

  it("rejects a body that is not JSON", async () => {
    const response = await fetch(`${sim.url}/together/v1/chat/completions`, {
      method: "POST",
      headers: { ...hub, "content-type": "text/plain" },
      body: "hello",
    });
    expect(response.status).toBe(400);
    const broken = await fetch(`${sim.url}/together/v1/chat/completions`, {
      method: "POST",
      headers: { ...hub, "content-type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
  });

  it("Replicate: additional properties are refused like the recording", async () => {
    const response = await call(
      "replicate",
      "/v1/predictions",
      { input: {}, version: "abc", provider: "replicate" },
      hub,
    );
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json()).detail).toBe("- Additional property provider is not allowed\n");
  });

  it("fal-ai speech: Kokoro reads the text from `prompt`, Dia from `text`, as the real apps do", async () => {
    const speak = async (model: string, body: Record<string, string>) => {
      const response = await call("fal-ai", `/${model}`, body, hub);
      return { status: response.status, body: await response.json() };
    };
    const kokoro = "fal-ai/kokoro/american-english";
    expect(await speak(kokoro, { prompt: "Hello" })).toMatchObject({ status: 200, body: { audio: {} } });
    expect(await speak(kokoro, { text: "Hello" })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["body", "prompt"] }] },
    });
    expect(await speak("fal-ai/dia-tts", { text: "[S1] Hello" })).toMatchObject({ status: 200 });
    expect(await speak("fal-ai/dia-tts", { prompt: "[S1] Hello" })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["body", "text"] }] },
    });
  });

  it("fal-ai: only audio data URLs of the accepted types", async () => {
    const model = "/fal-ai/whisper";
    const ok = await call("fal-ai", model, { audio_url: "data:audio/wav;base64,UklGRg==" }, hub);
    expect((await ok.json()).text).toEqual(expect.any(String));
    const refused = await call("fal-ai", model, { audio_url: "data:audio/ogg;base64,T2dn" }, hub);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ detail: "Unsupported data URL" });
  });
});
