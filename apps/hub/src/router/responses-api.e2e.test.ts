import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN } from "../__fixtures__/seeded-app.js";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { createMemoryLogger } from "../logger.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone, INFERENCE_TOKEN_FOR_GATED_MODELS } from "./__fixtures__/gated-grants.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * `POST /v1/responses` as its users reach it: the `openai` clients' `responses.create` (Python from the
 * project's virtualenv, and npm), streamed and not, against hosted providers (provider-sim as every one) and
 * an own provider (a second provider-sim speaking plain OpenAI chat completions, added through the admin API).
 * The providers get chat completions; the caller gets a Response object or its events. Then the rest of
 * the router's API as the public router has it today: `/v1/models` with each provider's configured price and
 * context length and its measured latency and throughput, `:cheapest` and `:preferred`.
 */
const HOSTED = "meta-llama/Llama-3.1-8B-Instruct";
const OWN_ONLY = "bartowski/Llama-3.2-3B-Instruct-GGUF";
const OWN_KEY = `sk-own-${"c3".repeat(12)}`;
const PYTHON = join(fileURLToPath(new URL("../../../../", import.meta.url)), ".venv/bin/python");

let setup: SimHub | undefined;
let sim: ProviderSim;
let own: ProviderSim;
let hub: RunningHub;
let token: string;
const logger = createMemoryLogger();

async function adminPut(path: string, body: unknown): Promise<void> {
  const answer = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.text()).toBeLessThan(300);
}

beforeAll(async () => {
  setup = await startHubOnSim({ ownProvidersHealthIntervalMs: 3_600_000, logger });
  ({ hub, sim } = setup);
  own = await startProviderSim({ providerKeys: { together: [OWN_KEY] } });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "responses",
      ...INFERENCE_TOKEN_FOR_GATED_MODELS,
    })
  ).token;
  await grantGatedModelsToEveryone(hub.store);
  await adminPut("/gpu-r", {
    baseUrl: `${own.url}/together/v1`,
    apiKey: OWN_KEY,
    healthPath: "/__sim/health",
  });
  await adminPut("/gpu-r/models", { model: OWN_ONLY, servedName: "llama-local" });
}, 60_000);
afterAll(async () => {
  await setup?.close();
  await own?.close();
});

describe.skipIf(!existsSync(PYTHON))("the Python openai client's responses.create", () => {
  it("answers whole and streamed, from hosted providers and an own provider", async () => {
    const script = `
import os, json
from openai import OpenAI
client = OpenAI(base_url=os.environ["HUB"] + "/v1", api_key=os.environ["TOKEN"], max_retries=0)
out = {}
for model in ["${HOSTED}", "${HOSTED}:together", "${OWN_ONLY}"]:
    raw = client.responses.with_raw_response.create(model=model, input="Say hello", instructions="Be brief", max_output_tokens=20)
    response = raw.parse()
    whole = {"provider": raw.headers.get("x-inference-provider"), "text": response.output_text,
             "status": response.status, "object": response.object, "types": [item.type for item in response.output],
             "usage": response.usage.output_tokens if response.usage else None}
    types, deltas, final = [], "", None
    for event in client.responses.create(model=model, input=[{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}], stream=True):
        types.append(event.type)
        if event.type == "response.output_text.delta":
            deltas += event.delta
        if event.type == "response.completed":
            final = event.response
    streamed = {"types": types, "deltas": deltas, "final_text": final.output_text if final else None,
                "usage": final.usage.total_tokens if final and final.usage else None,
                "sequence": [i for i in range(len(types))]}
    out[model] = {"whole": whole, "streamed": streamed}
print(json.dumps(out))
`;
    sim.clearRequests();
    own.clearRequests();
    const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], {
      env: { ...process.env, HUB: hub.url, TOKEN: token },
    });
    const out = JSON.parse(stdout) as Record<
      string,
      {
        whole: {
          provider: string;
          text: string;
          status: string;
          object: string;
          types: string[];
          usage: number;
        };
        streamed: { types: string[]; deltas: string; final_text: string; usage: number };
      }
    >;
    for (const [model, { whole, streamed }] of Object.entries(out)) {
      expect([model, whole.object, whole.status, whole.types]).toEqual([
        model,
        "response",
        "completed",
        ["message"],
      ]);
      expect(whole.text.length).toBeGreaterThan(0);
      expect(whole.usage).toBeGreaterThan(0);
      // The events in the order OpenAI sends them, text deltas adding up to the final text, usage at the end.
      expect(streamed.types.slice(0, 4)).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
      ]);
      expect(streamed.types.slice(-4)).toEqual([
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      expect(streamed.deltas.length).toBeGreaterThan(0);
      expect(streamed.final_text).toBe(streamed.deltas);
      expect(streamed.usage).toBeGreaterThan(0);
    }
    expect(out[`${HOSTED}:together`]?.whole.provider).toBe("together");
    expect(out[OWN_ONLY]?.whole.provider).toBe("gpu-r");
    // Providers got chat completions: the instructions as the system message, the limit as max_tokens.
    const ownCalls = own.requests.map((request) => request.json as Record<string, unknown>);
    expect(ownCalls[0]).toMatchObject({
      model: "llama-local",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "Say hello" },
      ],
      max_tokens: 20,
    });
    expect(ownCalls[1]).toMatchObject({
      model: "llama-local",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    });
    expect(sim.requests.every((request) => request.path.includes("/chat/completions"))).toBe(true);
  }, 120_000);
});

describe("the npm openai client's responses.create", () => {
  it("answers whole and streamed, and usage is recorded under the caller", async () => {
    const client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
    const whole = await client.responses.create({ model: OWN_ONLY, input: "Hello" });
    expect(whole.output_text.length).toBeGreaterThan(0);
    let text = "";
    for await (const event of await client.responses.create({
      model: HOSTED,
      input: "Hello",
      stream: true,
    })) {
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    expect(text.length).toBeGreaterThan(0);
    const rows = await hub.store.usage.summary();
    expect(rows.some((row) => row.provider === "gpu-r" && row.model === OWN_ONLY)).toBe(true);
  });

  it("says what it does not translate, before any provider is called", async () => {
    const client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
    sim.clearRequests();
    await expect(
      client.responses.create({ model: HOSTED, input: "Hi", previous_response_id: "resp_1" }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("does not keep") });
    await expect(
      client.responses.create({ model: HOSTED, input: "Hi", tools: [{ type: "web_search_preview" }] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("Only function tools") });
    expect(sim.requests).toHaveLength(0);
  });
});

describe("/v1/models, :cheapest and :preferred", () => {
  const OPEN_CHAT = HOSTED; // served by several hosted providers
  type Listed = { id: string; providers: Record<string, unknown>[] };
  const listed = async (): Promise<Listed | undefined> => {
    const answer = await fetch(`${hub.url}/v1/models`);
    return ((await answer.json()) as { data: Listed[] }).data.find((model) => model.id === OPEN_CHAT);
  };
  const chat = async (bearer: string, model: string) => {
    const answer = await fetch(`${hub.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }] }),
    });
    expect(answer.status, await answer.text()).toBe(200);
    return answer.headers.get("x-inference-provider");
  };

  it("reports configured prices and context lengths, and latency and throughput measured from calls", async () => {
    const providers = (await listed())!.providers.map((entry) => entry.provider as string);
    expect(providers.length).toBeGreaterThanOrEqual(2);
    const [first, second] = providers as [string, string];
    const cli = (args: string[]) =>
      runAdminCommand(args, hub.store, INFERENCE_PROVIDERS, { readStdin: async () => "" });
    await cli(["providers:price", first, "--model", OPEN_CHAT, "--context-length", "32768"]);
    await cli([
      "providers:price",
      second,
      "--model",
      OPEN_CHAT,
      "--input-price",
      "0.1",
      "--output-price",
      "0.3",
    ]);
    await expect(
      cli(["providers:price", "nobody", "--model", OPEN_CHAT, "--input-price", "1"]),
    ).rejects.toThrow(/neither a hosted provider nor an own one/);
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
    await chat(token, `${OPEN_CHAT}:${first}`);
    const model = (await listed())!;
    const entry = (name: string) => model.providers.find((provider) => provider.provider === name);
    expect(entry(first)).toMatchObject({
      status: "live",
      context_length: 32768,
      first_token_latency_ms: expect.any(Number),
      throughput: expect.any(Number),
      is_model_author: false,
    });
    expect(entry(first)).not.toHaveProperty("pricing");
    expect(entry(second)).toMatchObject({ pricing: { input: 0.1, output: 0.3 } });
    expect(entry(second)).not.toHaveProperty("context_length");
    // :cheapest takes the lowest configured price.
    expect(await chat(token, `${OPEN_CHAT}:cheapest`)).toBe(second);
    expect(await chat(token, OPEN_CHAT)).toBe(first);
  });

  it(":preferred follows the caller's stored order; another caller keeps the hub's", async () => {
    const providers = (await listed())!.providers.map((entry) => entry.provider as string);
    const last = providers.at(-1)!;
    const prefers = await userToken(hub.store, "prefers-responses", "write");
    await grantGatedModelsToEveryone(hub.store);
    const stored = await fetch(`${hub.url}/api/settings/inference-providers`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${prefers}`, "Content-Type": "application/json" },
      body: JSON.stringify({ providers: [last] }),
    });
    expect(stored.status, await stored.text()).toBe(200);
    expect(await chat(prefers, `${OPEN_CHAT}:preferred`)).toBe(last);
    expect(await chat(token, `${OPEN_CHAT}:preferred`)).toBe(providers[0]);
  });
});

describe("an answer /v1/responses cannot translate", () => {
  it("is a 502 whose request line the envelope writes, beside the provider call's line", async () => {
    // An OpenAI-compatible server answering a chat call with 200 and a body that is not JSON.
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { "Content-Type": "application/json" }).end("not json");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await adminPut("/gpu-garbled", {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        apiKey: OWN_KEY,
        healthPath: "/health",
      });
      await adminPut("/gpu-garbled/models", { model: OWN_ONLY, servedName: "garbled" });
      const answer = await fetch(`${hub.url}/v1/responses`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "X-Request-Id": "garbled-1",
        },
        body: JSON.stringify({ model: `${OWN_ONLY}:gpu-garbled`, input: "Hello" }),
      });
      expect(answer.status, await answer.text()).toBe(502);
      const lines = logger.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.requestId === "garbled-1");
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ msg: "router call", provider: "gpu-garbled", status: 200 }),
          expect.objectContaining({ msg: "request", path: "/v1/responses", status: 502 }),
        ]),
      );
    } finally {
      await fetch(`${hub.url}/api/admin/own-providers/gpu-garbled`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
