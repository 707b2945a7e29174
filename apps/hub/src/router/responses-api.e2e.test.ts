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
    await expect(client.responses.create({ model: HOSTED, input: "Hi", store: true })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("set it to false"),
    });
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

describe.skipIf(!existsSync(PYTHON))("what /v1/responses sends, read by openai-python's own types", () => {
  it("validates every event and Response, with reasoning, tool calls and errors mid-stream", async () => {
    // An OpenAI-compatible server scripted by the last user message: reasoning beside the answer
    // (`reasoning_content`, as DeepSeek and vLLM give it), a tool call, an error chunk mid-stream, or a stream
    // torn off; it keeps the chat body it was sent.
    const bodies: Record<string, unknown>[] = [];
    const server = createServer((request, response) => {
      let raw = "";
      request.on("data", (part) => {
        raw += part;
      });
      request.on("end", () => {
        if (!request.url?.endsWith("/chat/completions")) return void response.end("ok");
        const body = JSON.parse(raw) as { messages: { content: unknown }[]; stream?: boolean };
        bodies.push(body);
        const script = String(JSON.stringify(body.messages.at(-1)?.content));
        const usage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
        const head = { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "scripted" };
        const toolCall = {
          id: "call_1",
          type: "function",
          function: { name: "weather", arguments: '{"city":"Paris"}' },
        };
        if (!body.stream) {
          const message = script.includes("tool")
            ? { role: "assistant", content: null, tool_calls: [toolCall] }
            : { role: "assistant", content: "The answer.", reasoning_content: "Thinking it over." };
          const finish = script.includes("tool") ? "tool_calls" : "stop";
          response.writeHead(200, { "Content-Type": "application/json" });
          return void response.end(
            JSON.stringify({ ...head, choices: [{ index: 0, message, finish_reason: finish }], usage }),
          );
        }
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        const send = (delta: unknown, finish: string | null = null, extra: object = {}) =>
          response.write(
            `data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
          );
        if (script.includes("tool")) {
          send({
            role: "assistant",
            tool_calls: [{ index: 0, ...toolCall, function: { name: "weather", arguments: "" } }],
          });
          send({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, "tool_calls");
        } else {
          send({ role: "assistant", reasoning_content: "Thinking " });
          send({ reasoning_content: "it over." });
          send({ content: "The " });
          if (script.includes("error")) {
            response.write(
              `data: ${JSON.stringify({ error: { message: "upstream overloaded", type: "server_error" } })}\n\n`,
            );
            return void response.end();
          }
          // Torn once the chunks so far are on the wire (destroying at once would drop them unsent).
          if (script.includes("torn")) return void setTimeout(() => response.destroy(), 100);
          send({ content: "answer." }, "stop");
          send({}, null, { choices: [], usage });
        }
        response.end("data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const script = `
import json, os, typing, httpx
from pydantic import BaseModel
from openai import OpenAI
from openai.types.responses import Response, ResponseStreamEvent

HUB, TOKEN, MODEL = os.environ["HUB"], os.environ["TOKEN"], os.environ["MODEL"]
# Each event validated by the class its type names (a failure then says which field is wrong).
EVENT_CLASSES = {cls.model_fields["type"].annotation.__args__[0]: cls for cls in typing.get_args(typing.get_args(ResponseStreamEvent)[0])}

# Keys OpenAI's API sends that this client's types leave out (a Response's store; the function name in
# function_call_arguments.done, which openai-node declares).
SENT_BY_OPENAI = {"$.response.store", "$.store", "$.name"}

def unknown_keys(value, path="$"):
    # Keys the client's types do not declare (pydantic keeps them as extras).
    found = []
    if isinstance(value, BaseModel):
        found += [f"{path}.{key}" for key in (value.model_extra or {}) if f"{path}.{key}" not in SENT_BY_OPENAI]
        for name in type(value).model_fields:
            found += unknown_keys(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += unknown_keys(item, f"{path}[{index}]")
    return found

def call(body):
    headers = {"Authorization": f"Bearer {TOKEN}"}
    problems = []
    if not body.get("stream"):
        answer = httpx.post(HUB + "/v1/responses", json=body, headers=headers, timeout=60)
        if answer.status_code != 200:
            return {"status": answer.status_code}
        try:
            response = Response.model_validate(answer.json())
            problems += unknown_keys(response)
            return {"types": [item.type for item in response.output], "text": response.output_text, "problems": problems}
        except Exception as error:
            return {"problems": [str(error)[:800]]}
    types, name = [], None
    with httpx.stream("POST", HUB + "/v1/responses", json=body, headers=headers, timeout=60) as answer:
        if answer.status_code != 200:
            return {"status": answer.status_code, "body": answer.read().decode()[:300]}
        for line in answer.iter_lines():
            if line.startswith("event:"):
                name = line[len("event:"):].strip()
            elif line.startswith("data:"):
                data = json.loads(line[len("data:"):])
                types.append(data.get("type"))
                if name != data.get("type"):
                    problems.append(f"event {name} carries {data.get('type')}")
                if data.get("sequence_number") != len(types) - 1:
                    problems.append(f"sequence_number {data.get('sequence_number')} at {len(types) - 1}")
                try:
                    problems += unknown_keys(EVENT_CLASSES[data.get("type")].model_validate(data))
                except Exception as error:
                    problems.append(f"{data.get('type')}: {str(error)[:800]}")
    return {"types": types, "problems": problems}

tools = [{"type": "function", "name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
out = {}
for stream in [False, True]:
    key = "stream" if stream else "whole"
    out["hosted " + key] = call({"model": os.environ["HOSTED"], "input": "Hi", "max_output_tokens": 5, "stream": stream})
    out["reasoning " + key] = call({"model": MODEL, "input": "think", "stream": stream})
    out["tool " + key] = call({"model": MODEL, "input": "tool please", "tools": tools, "stream": stream})
out["error stream"] = call({"model": MODEL, "input": "error", "stream": True})
out["torn stream"] = call({"model": MODEL, "input": "torn", "stream": True})
# A later turn as the client's own docs say to send it: the earlier output items (reasoning included) given
# back, a tool's output, an image part, instructions and a JSON schema for the answer.
first = OpenAI(base_url=HUB + "/v1", api_key=TOKEN, max_retries=0).responses.create(model=MODEL, input="think")
out["next turn"] = call({
    "model": MODEL,
    "instructions": "Be brief",
    "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "think"}, {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]},
        *[item.model_dump(exclude_none=True) for item in first.output],
        {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        {"role": "user", "content": "thanks"},
    ],
    "text": {"format": {"type": "json_schema", "name": "w", "schema": {"type": "object"}, "strict": True}},
    "max_output_tokens": 50,
})
print(json.dumps(out))
`;
    try {
      await adminPut("/gpu-scripted", {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        apiKey: OWN_KEY,
        healthPath: "/health",
      });
      await adminPut("/gpu-scripted/models", { model: OWN_ONLY, servedName: "scripted" });
      const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], {
        env: { ...process.env, HUB: hub.url, TOKEN: token, MODEL: `${OWN_ONLY}:gpu-scripted`, HOSTED },
      });
      const out = JSON.parse(stdout) as Record<
        string,
        { types?: string[]; text?: string; problems?: string[] }
      >;
      for (const [scenario, result] of Object.entries(out)) {
        expect({ scenario, ...result }).toMatchObject({ scenario, problems: [] });
      }
      // Reasoning is an item of its own before the answer, whole and streamed.
      expect(out["reasoning whole"]).toMatchObject({ types: ["reasoning", "message"], text: "The answer." });
      expect(out["reasoning stream"]?.types).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.reasoning_text.delta",
        "response.reasoning_text.delta",
        "response.reasoning_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      expect(out["tool whole"]?.types).toEqual(["function_call"]);
      // An upstream error or a torn stream ends in an error event and a failed response, not a cut stream.
      expect(out["error stream"]?.types?.slice(-2)).toEqual(["error", "response.failed"]);
      expect(out["torn stream"]?.types?.slice(-2)).toEqual(["error", "response.failed"]);
      // The later turn reached the server as chat: reasoning left out, the rest translated.
      expect(out["next turn"]?.types).toEqual(["reasoning", "message"]);
      expect(bodies.at(-1)).toMatchObject({
        messages: [
          { role: "system", content: "Be brief" },
          {
            role: "user",
            content: [
              { type: "text", text: "think" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            ],
          },
          { role: "assistant", content: "The answer." },
          { role: "assistant", tool_calls: [{ id: "call_1", function: { name: "weather" } }] },
          { role: "tool", tool_call_id: "call_1", content: "sunny" },
          { role: "user", content: "thanks" },
        ],
        max_tokens: 50,
        response_format: {
          type: "json_schema",
          json_schema: { name: "w", schema: { type: "object" }, strict: true },
        },
      });
    } finally {
      await fetch(`${hub.url}/api/admin/own-providers/gpu-scripted`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      await new Promise((resolve) => server.close(resolve));
    }
  }, 120_000);
});
