import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ProviderSim } from "@modelhub/provider-sim";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone, INFERENCE_TOKEN_FOR_GATED_MODELS } from "./__fixtures__/gated-grants.js";
import { MODEL_ROUTE_TTL_MS } from "./model-routing.js";

/**
 * The OpenAI-compatible router as its users reach it: the real `openai` clients (npm, and Python from the
 * project's virtualenv) pointed at the hub's `/v1`, provider-sim as every provider.
 */
const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const PYTHON = join(REPO_ROOT, ".venv/bin/python");

let setup: SimHub | undefined;
let sim: ProviderSim;
let hub: RunningHub;
let token: string;
let client: OpenAI;

beforeAll(async () => {
  setup = await startHubOnSim();
  ({ hub, sim } = setup);
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "openai",
      ...INFERENCE_TOKEN_FOR_GATED_MODELS,
    })
  ).token;
  client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
});
afterAll(async () => {
  await setup?.close();
});
beforeEach(() => {
  sim.clearRequests();
  sim.setFault(null);
  while (sim.pendingFaults().length) sim.setFault(null);
});

const providersCalled = () => sim.requests.map((request) => request.provider);
const messages = [{ role: "user" as const, content: "What is the capital of France?" }];

describe("the npm openai client against /v1", () => {
  it("chats with owner/name: the hub's first provider answers, and says so", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: MODEL, messages, max_tokens: 20 })
      .withResponse();
    expect(data.choices[0]?.message.content).toEqual(expect.any(String));
    expect(response.headers.get("x-inference-provider")).toBe(providersCalled()[0]);
    expect(providersCalled()).toHaveLength(1);
  });

  it("chats with owner/name:provider, sending the mapping's provider id", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: `${MODEL}:together`, messages })
      .withResponse();
    expect(data.choices[0]?.message.content).toEqual(expect.any(String));
    expect(response.headers.get("x-inference-provider")).toBe("together");
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]?.json).toMatchObject({ model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo" });
    expect(JSON.stringify(sim.requests[0])).not.toContain(token);
  });

  it("passes the caller's body on byte for byte but for the provider's model id", async () => {
    // A compact body (the id is written into the caller's bytes) and a spaced one (re-serialized): in both
    // the provider gets its own id once, and the rest of the call.
    for (const [body, seed] of [
      [
        `{"model":"${MODEL}:together","messages":[{"role":"user","content":"Hi"}],"seed":12345678901234567890}`,
        "12345678901234567890",
      ],
      [`{ "model": "${MODEL}:together", "messages": [{"role": "user", "content": "Hi"}], "seed": 7 }`, "7"],
    ] as const) {
      sim.clearRequests();
      const answer = await fetch(`${hub.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body,
      });
      expect(answer.status).toBe(200);
      const sent = sim.requests[0]!.bodyText;
      expect(JSON.parse(sent)).toMatchObject({ model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo" });
      expect(sent.split('"model"')).toHaveLength(2);
      // The spliced body keeps a seed past 2^53 as sent (a re-serialized one would round it).
      expect(sent).toContain(`"seed":${seed}`);
    }
  });

  it("chats with :fastest and :cheapest", async () => {
    for (const policy of ["fastest", "cheapest"]) {
      const { data, response } = await client.chat.completions
        .create({ model: `${MODEL}:${policy}`, messages })
        .withResponse();
      expect(data.choices[0]?.message.content).toEqual(expect.any(String));
      expect(response.headers.get("x-inference-provider")).toEqual(expect.any(String));
    }
  });

  it("streams, event by event", async () => {
    const stream = await client.chat.completions.create({
      model: `${MODEL}:fireworks-ai`,
      messages,
      stream: true,
    });
    let text = "";
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      chunks++;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text.length).toBeGreaterThan(0);
  });

  it("lists the chat models with their live providers", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain(MODEL);
    const listed = (await (await fetch(`${hub.url}/router/v1/models`)).json()) as {
      data: Array<{ id: string; owned_by: string; providers: Array<{ provider: string; status: string }> }>;
    };
    const llama = listed.data.find((model) => model.id === MODEL);
    expect(llama?.owned_by).toBe("meta-llama");
    expect(llama?.providers.map((p) => p.provider)).toEqual(
      expect.arrayContaining(["together", "cerebras", "fireworks-ai"]),
    );
  });

  it("lists models for anyone, but refuses a wrong token sent with the listing", async () => {
    // Clients check a key with this call before their first completion: a wrong one must fail here.
    const wrong = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: "hf_notAToken", maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
    const anonymous = await fetch(`${hub.url}/v1/models`);
    expect(anonymous.status).toBe(200);
  });

  it("retrieves one model as OpenAI's clients ask for it, and 404s one it does not serve", async () => {
    const model = await client.models.retrieve(MODEL);
    expect(model.id).toBe(MODEL);
    expect(model.owned_by).toBe("meta-llama");
    await expect(client.models.retrieve("nobody/nothing")).rejects.toMatchObject({ status: 404 });
    expect((await fetch(`${hub.url}/v1/models/bad%E0%A4%A`)).status).toBe(400);
  });

  it("refuses unknown models and providers with clear errors", async () => {
    await expect(client.chat.completions.create({ model: "nobody/nothing", messages })).rejects.toMatchObject(
      {
        status: 404,
      },
    );
    await expect(client.chat.completions.create({ model: `${MODEL}:acme`, messages })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: "sk-nope", maxRetries: 0 }).chat.completions.create({
        model: MODEL,
        messages,
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(sim.requests).toHaveLength(0);
  });
});

describe("changes between calls naming a provider (their selection is reused while the model's route is)", () => {
  // A fresh model per test: the route cache of another test's model must not hide the change.
  async function chatModel(id: string, providerId: string): Promise<void> {
    const base = (await hub.store.models.get(MODEL))!;
    await hub.store.models.upsert({ ...base, id, private: false, gated: false });
    await hub.store.mappings.set(id, "together", { status: "live", providerId, task: "conversational" });
  }
  const afterRouteTtl = () => new Promise((resolve) => setTimeout(resolve, MODEL_ROUTE_TTL_MS + 50));

  it("sends a changed mapping's provider id on the next call once the route is read again", async () => {
    const id = "acme/remapped-chat";
    await chatModel(id, "acme/first-id");
    await client.chat.completions.create({ model: `${id}:together`, messages });
    await hub.store.mappings.set(id, "together", {
      status: "live",
      providerId: "acme/second-id",
      task: "conversational",
    });
    await afterRouteTtl();
    await client.chat.completions.create({ model: `${id}:together`, messages });
    expect(sim.requests.map((request) => (request.json as { model: string }).model)).toEqual([
      "acme/first-id",
      "acme/second-id",
    ]);
  });

  it("answers 404 for a model made private, and refuses a removed mapping, on the next call", async () => {
    const id = "acme/soon-private-chat";
    await chatModel(id, "acme/soon-private-id");
    const other = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
    await other.chat.completions.create({ model: `${id}:together`, messages });
    const base = (await hub.store.models.get(id))!;
    await hub.store.models.upsert({ ...base, private: true });
    await afterRouteTtl();
    // The token's owner is not the model's author ("acme"): the private model is hidden from them.
    await expect(other.chat.completions.create({ model: `${id}:together`, messages })).rejects.toMatchObject({
      status: 404,
    });
    await hub.store.models.upsert({ ...base, private: false });
    await hub.store.mappings.set(id, "together", {
      status: "live",
      providerId: "acme/soon-private-id",
      task: "text-to-image",
    });
    await afterRouteTtl();
    await expect(other.chat.completions.create({ model: `${id}:together`, messages })).rejects.toMatchObject({
      status: 400,
    });
    expect(sim.requests).toHaveLength(1);
  });
});

describe("failover", () => {
  it("moves on to the next provider when the first fails before its first byte (5xx, 429, refused)", async () => {
    const first = (
      await client.chat.completions.create({ model: MODEL, messages }).withResponse()
    ).response.headers.get("x-inference-provider")!;
    for (const fault of [
      { kind: "status" as const, status: 503 },
      { kind: "rate-limit" as const, retryAfterSeconds: 1 },
      { kind: "drop-connection" as const },
    ]) {
      sim.clearRequests();
      sim.queueFault({ ...fault, provider: first });
      const { data, response } = await client.chat.completions
        .create({ model: MODEL, messages })
        .withResponse();
      expect(data.choices[0]?.message.content).toEqual(expect.any(String));
      const answered = response.headers.get("x-inference-provider");
      expect(answered).not.toBe(first);
      expect(providersCalled()).toEqual([first, answered]);
    }
  });

  it("passes a refusal (4xx other than 429) on without trying another provider", async () => {
    sim.queueFault({ kind: "status", status: 400, provider: "together" });
    sim.queueFault({ kind: "status", status: 422, times: 10 });
    await expect(client.chat.completions.create({ model: MODEL, messages })).rejects.toMatchObject({
      status: 422,
    });
    expect(providersCalled()).toHaveLength(1);
  });

  it("never retries once the first byte has gone out: a stream cut midway stays cut", async () => {
    const first = (
      await client.chat.completions.create({ model: MODEL, messages }).withResponse()
    ).response.headers.get("x-inference-provider")!;
    sim.clearRequests();
    sim.queueFault({ kind: "drop-stream", afterChunks: 2, provider: first });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
    let chunks = 0;
    await expect(
      (async () => {
        for await (const _chunk of stream) chunks++;
      })(),
    ).rejects.toThrow();
    expect(chunks).toBeGreaterThan(0);
    expect(providersCalled()).toEqual([first]);
  });

  it("passes on the last provider's failure when every provider fails", async () => {
    sim.queueFault({ kind: "status", status: 503, times: 50 });
    await expect(client.chat.completions.create({ model: MODEL, messages })).rejects.toMatchObject({
      status: 503,
    });
    expect(providersCalled().length).toBeGreaterThan(1);
    expect(new Set(providersCalled()).size).toBe(providersCalled().length);
  });
});

describe.skipIf(!existsSync(PYTHON))("the Python openai client against /v1", () => {
  it("chats with each model form, streams, lists models and retrieves one", async () => {
    const script = `
import os, json
from openai import OpenAI
client = OpenAI(base_url=os.environ["HUB"] + "/v1", api_key=os.environ["TOKEN"], max_retries=0)
out = {}
for model in ["${MODEL}", "${MODEL}:together", "${MODEL}:fastest", "${MODEL}:cheapest"]:
    raw = client.chat.completions.with_raw_response.create(model=model, messages=[{"role": "user", "content": "Hi"}])
    out[model] = [raw.parse().choices[0].message.content, raw.headers.get("x-inference-provider")]
text = ""
for chunk in client.chat.completions.create(model="${MODEL}:cerebras", messages=[{"role": "user", "content": "Hi"}], stream=True):
    if chunk.choices and chunk.choices[0].delta.content:
        text += chunk.choices[0].delta.content
out["stream"] = text
out["models"] = [m.id for m in client.models.list()]
out["retrieved"] = client.models.retrieve("${MODEL}").id
print(json.dumps(out))
`;
    const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], {
      env: { ...process.env, HUB: hub.url, TOKEN: token },
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    for (const suffix of ["", ":together", ":fastest", ":cheapest"]) {
      const [content, provider] = out[`${MODEL}${suffix}`] as [string, string];
      expect(content.length).toBeGreaterThan(0);
      expect(provider).toEqual(suffix === ":together" ? "together" : expect.any(String));
    }
    expect((out.stream as string).length).toBeGreaterThan(0);
    expect(out.models).toContain(MODEL);
    expect(out.retrieved).toBe(MODEL);
  }, 30_000);
});
