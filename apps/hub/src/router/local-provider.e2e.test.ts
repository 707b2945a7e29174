import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { renderChatTemplate } from "@modelhub/jinja";
import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { ADMIN_TOKEN } from "../__fixtures__/seeded-app.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { openBlobStore } from "../storage/blob-store-config.js";
import type { LocalEngine } from "./local-engine.js";
import { MODEL_ROUTE_TTL_MS } from "./model-routing.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * The built-in llama.cpp provider end to end: a tiny random-weight Llama GGUF (made here by the `gguf` Python
 * package) uploaded to the hub, enabled through the admin CLI, and answered by llama.cpp on this CPU through
 * `/v1/chat/completions` (the npm `openai` client), with the GGUF's own chat template rendered by
 * packages/jinja; the queue's limits; load on first use and unload when idle.
 */
const MODEL = "alice/tiny-llama-GGUF";
const FILE = "tiny-llama-F32.gguf";
const SERVED = `${MODEL}@F32`;
const MAKE_GGUF = fileURLToPath(new URL("./__fixtures__/make-tiny-gguf.py", import.meta.url));
// The template make-tiny-gguf.py writes into the file.
const TEMPLATE =
  "{{ bos_token }}{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}</s>\n" +
  "{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}";

/** A chat's prompt as the GGUF's template renders it, with its BOS and EOS tokens. */
const templated = (messages: { role: string; content: string }[]) =>
  renderChatTemplate(TEMPLATE, {
    messages,
    add_generation_prompt: true,
    bos_token: "<s>",
    eos_token: "</s>",
  });

let engine: LocalEngine;
const hub = useTestHub({
  adminToken: ADMIN_TOKEN,
  localProvider: {
    // The tests' GGUF files are ~470 kB.
    maxModelBytes: 1_000_000,
    limits: { concurrency: 2, queue: 6, idleMs: 1500, threads: 1, contextSize: 256, retryAfterSeconds: 3 },
    expose: (exposed) => {
      engine = exposed;
    },
  },
});
let alice: string;
let client: OpenAI;

async function api(token: string, method: string, path: string, body?: unknown, type = "application/json") {
  return fetch(`${hub.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": type },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: alice, maxRetries: 0 });
  const path = join(hub.dir, FILE);
  const made = await runPython([MAKE_GGUF, path], {}, 60_000);
  expect(made.code, made.stderr).toBe(0);
  const bytes = readFileSync(path);
  const oid = createHash("sha256").update(bytes).digest("hex");
  expect((await api(alice, "POST", "/api/repos/create", { name: MODEL, type: "model" })).status).toBe(200);
  const batch = await api(alice, "POST", `/${MODEL}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid, size: bytes.length }],
  });
  const href = ((await batch.json()) as { objects: { actions?: { upload?: { href: string } } }[] }).objects[0]
    ?.actions?.upload?.href;
  if (href) expect((await fetch(href, { method: "PUT", body: bytes })).status).toBe(200);
  const lines = [
    { key: "header", value: { summary: "add the GGUF" } },
    { key: "lfsFile", value: { path: FILE, algo: "sha256", oid, size: bytes.length } },
  ];
  const committed = await api(
    alice,
    "POST",
    `/api/models/${MODEL}/commit/main`,
    lines.map((line) => JSON.stringify(line)).join("\n"),
    "application/x-ndjson",
  );
  expect(committed.status, await committed.clone().text()).toBe(200);
}, 90_000);

describe("the local provider, enabled for a repository and quantization", () => {
  it("is enabled through the admin CLI and listed by the admin API; not by others", async () => {
    const output = await runAdminCommand(
      ["local:enable", MODEL, "--quant", "f32"],
      hub.store,
      INFERENCE_PROVIDERS,
      {
        readStdin: async () => "",
        openBlobs: () => openBlobStore({ kind: "fs" }, hub.dataDir),
      },
    );
    expect(output).toMatchObject({ json: { modelId: MODEL, quantization: "F32", filePath: FILE } });
    const listed = await api(ADMIN_TOKEN, "GET", "/api/admin/local-provider");
    // Nothing called yet: enabled, idle (loaded on its first call); no call running or waiting.
    expect(await listed.json()).toMatchObject({
      running: true,
      calls: { running: 0, waiting: 0 },
      models: [{ modelId: MODEL, quantization: "F32", state: "idle" }],
    });
    // A signed-in user who is not an administrator can neither read nor change it.
    expect((await api(alice, "GET", "/api/admin/local-provider")).status).toBe(403);
    const put = await api(alice, "PUT", "/api/admin/local-provider/models", {
      model: MODEL,
      quantization: "F32",
    });
    expect(put.status).toBe(403);
    // A quantization the repository has no file for is refused, naming the files it has.
    const missing = await api(ADMIN_TOKEN, "PUT", "/api/admin/local-provider/models", {
      model: MODEL,
      quantization: "Q4_K_M",
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain(FILE);
    expect(engine.stats().loads).toBe(0);
    // The CLI is another process's view: the running hub reads the change at most OWN_PROVIDERS_TTL_MS late.
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
  });

  it("streams a chat completion generated by llama.cpp, the GGUF's template applied", async () => {
    const messages = [{ role: "user" as const, content: "hello world" }];
    const stream = await client.chat.completions.create({
      model: `${MODEL}:local`,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 12,
      temperature: 0,
    });
    let text = "";
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    // Loaded on this first call.
    expect(engine.stats().loads).toBe(1);
    expect(chunks).toBeGreaterThan(2);
    expect(finish === "stop" || finish === "length").toBe(true);
    // The prompt's count is the model tokenizer's count of the template, rendered by packages/jinja.
    const prompt = templated(messages);
    expect(usage?.prompt_tokens).toBe(await engine.countTokens(SERVED, prompt));
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeLessThanOrEqual(12);
    expect(usage?.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens);
    // Greedy decoding: the same prompt gives the same text, whole (not streamed) this time.
    const whole = await client.chat.completions.create({
      model: MODEL,
      messages,
      max_tokens: 12,
      temperature: 0,
    });
    expect(whole.choices[0]?.message.content).toBe(text);
    expect(whole.usage).toEqual({ ...usage });
    // Its first call loads llama.cpp and the model: seconds on a loaded CI machine.
  }, 120_000);

  it("ends the answer before a stop sequence, streamed and whole; refuses n > 1, tools, JSON", async () => {
    const ask = { model: `${MODEL}:local`, prompt: "hello world", max_tokens: 24, temperature: 0 };
    const full = (await client.completions.create(ask)).choices[0]?.text ?? "";
    expect(full.length).toBeGreaterThan(8);
    // A stop sequence taken from the middle of the greedy answer: the answer ends just before it.
    const stop = full.slice(6, 8);
    const expected = full.slice(0, full.indexOf(stop));
    const whole = await client.completions.create({ ...ask, stop: [stop, "never-said"] });
    expect(whole.choices[0]).toMatchObject({ text: expected, finish_reason: "stop" });
    const stream = await client.completions.create({ ...ask, stop, stream: true });
    let streamed = "";
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.text ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect({ streamed, finish }).toEqual({ streamed: expected, finish: "stop" });
    // A stop sequence is bounded: every token is checked against it on the hub's main thread.
    const long = await api(alice, "POST", "/v1/completions", { ...ask, stop: "x".repeat(5_000) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("at most 256 characters");
    // Several choices are not answered as one.
    const several = await api(alice, "POST", "/v1/chat/completions", {
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello" }],
      n: 3,
    });
    expect(several.status).toBe(400);
    expect(await several.text()).toContain("one choice per call");
    // Tools and JSON answers are not applied: said, not ignored.
    for (const [extra, words] of [
      [{ tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] }, "tools"],
      [{ response_format: { type: "json_object" } }, "JSON"],
    ] as const) {
      const refused = await api(alice, "POST", "/v1/chat/completions", {
        model: `${MODEL}:local`,
        messages: [{ role: "user", content: "hello" }],
        ...extra,
      });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(words);
    }
  });

  it("samples by the caller's seed: the same seed and prompt give the same tokens, another seed others", async () => {
    // Random weights at temperature 1: every token is a draw. Unseeded, node-llama-cpp seeds with the time in
    // seconds, so that calls within one second would agree by chance: the different seed tells them apart.
    const chat = async (seed: number) =>
      (
        await client.chat.completions.create({
          model: `${MODEL}:local`,
          messages: [{ role: "user", content: "hello world" }],
          max_tokens: 16,
          temperature: 1,
          seed,
        })
      ).choices[0]?.message.content;
    const complete = async (seed: number) =>
      (
        await client.completions.create({
          model: `${MODEL}:local`,
          prompt: "hello world",
          max_tokens: 16,
          temperature: 1,
          seed,
        })
      ).choices[0]?.text;
    for (const ask of [chat, complete]) {
      const first = await ask(7);
      expect(first?.length).toBeGreaterThan(0);
      const other = await ask(8);
      expect(await ask(7)).toBe(first);
      expect(other).not.toBe(first);
    }
  });

  it("takes OpenAI's 64-bit seeds, the same each time, and tells apart those equal modulo 2^32", async () => {
    // As a Python caller sends them (json.dumps of an int): exact digits, past what a double holds.
    const tokens = async (seed: string) => {
      const response = await api(
        alice,
        "POST",
        "/v1/completions",
        `{"model": "${MODEL}:local", "prompt": "hello world", "max_tokens": 16, "temperature": 1, "seed": ${seed}}`,
      );
      const body = await response.text();
      expect(response.status, body).toBe(200);
      return (JSON.parse(body) as { choices: { text: string }[] }).choices[0]?.text;
    };
    const largest = await tokens("9223372036854775807");
    expect(largest?.length).toBeGreaterThan(0);
    expect(await tokens("9223372036854775807")).toBe(largest);
    expect(await tokens("-9223372036854775808")).toEqual(expect.any(String));
    // 5 and 2^32 + 5 sampled alike when the seed was taken modulo 2^32.
    expect(await tokens(String(2 ** 32 + 5))).not.toBe(await tokens("5"));
    for (const seed of ["18446744073709551616", "-9223372036854777856", "1.5"]) {
      const refused = await api(
        alice,
        "POST",
        "/v1/completions",
        `{"model": "${MODEL}:local", "prompt": "hello", "max_tokens": 1, "seed": ${seed}}`,
      );
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("seed is a whole number in OpenAI's signed 64-bit range");
    }
  });

  it("refuses log probabilities and an echoed prompt, which it does not return, rather than omit them", async () => {
    for (const [path, extra, words] of [
      ["/v1/chat/completions", { logprobs: true }, "log probabilities"],
      ["/v1/chat/completions", { logprobs: true, top_logprobs: 2 }, "log probabilities"],
      ["/v1/completions", { logprobs: 0 }, "log probabilities"],
      ["/v1/completions", { echo: true }, "echo the prompt"],
    ] as const) {
      const body = path.endsWith("chat/completions")
        ? { messages: [{ role: "user", content: "hello" }] }
        : { prompt: "hello" };
      const refused = await api(alice, "POST", path, {
        model: `${MODEL}:local`,
        max_tokens: 1,
        ...body,
        ...extra,
      });
      expect([refused.status, await refused.text()]).toEqual([400, expect.stringContaining(words)]);
    }
    // Asking for none is an ordinary call.
    const plain = await api(alice, "POST", "/v1/completions", {
      model: `${MODEL}:local`,
      prompt: "hello",
      max_tokens: 1,
      logprobs: null,
      echo: false,
    });
    expect(plain.status).toBe(200);
  });

  it("streams the usage in a last chunk with no choices when asked (include_usage), as OpenAI does", async () => {
    // The Python `openai` client, as many SDKs read it: every chunk's usage null, then one with the counts.
    const script = `
import json, os
from openai import OpenAI
client = OpenAI(base_url=os.environ["BASE_URL"], api_key=os.environ["API_KEY"], max_retries=0)
ask = dict(model=os.environ["MODEL"], max_tokens=8, temperature=0, stream=True,
           stream_options={"include_usage": True})
chat = client.chat.completions.create(messages=[{"role": "user", "content": "hello world"}], **ask)
text = client.completions.create(prompt="hello world", **ask)
print(json.dumps({"chat": [c.model_dump() for c in chat], "text": [c.model_dump() for c in text]}))
`;
    const ran = await runPython(["-c", script], {
      BASE_URL: `${hub.url}/v1`,
      API_KEY: alice,
      MODEL: `${MODEL}:local`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    type Chunk = { choices: unknown[]; usage: OpenAI.CompletionUsage | null };
    const streams = JSON.parse(ran.stdout) as { chat: Chunk[]; text: Chunk[] };
    const chatPrompt = templated([{ role: "user", content: "hello world" }]);
    for (const [chunks, prompt] of [
      [streams.chat, chatPrompt],
      [streams.text, "hello world"],
    ] as const) {
      const last = chunks.at(-1);
      expect(last?.choices).toEqual([]);
      expect(last?.usage?.prompt_tokens).toBe(await engine.countTokens(SERVED, prompt));
      expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
      expect(last?.usage?.total_tokens).toBe(last!.usage!.prompt_tokens + last!.usage!.completion_tokens);
      expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null && chunk.choices.length === 1)).toBe(
        true,
      );
    }
    // Not asked for, no chunk carries a usage (OpenAI's stream has none), and stream_options needs a stream.
    const plain = await api(alice, "POST", "/v1/completions", {
      model: `${MODEL}:local`,
      prompt: "hello world",
      max_tokens: 4,
      stream: true,
    });
    expect(plain.status).toBe(200);
    expect(await plain.text()).not.toContain('"usage"');
    const unstreamed = await api(alice, "POST", "/v1/completions", {
      model: `${MODEL}:local`,
      prompt: "hello world",
      max_tokens: 4,
      stream_options: { include_usage: true },
    });
    expect([unstreamed.status, await unstreamed.text()]).toEqual([
      400,
      expect.stringContaining("stream_options is only allowed when stream is true"),
    ]);
  });

  it("answers the Responses API (openai's responses.create), streamed and whole, with the usage counted", async () => {
    const script = `
import json, os
from openai import OpenAI
client = OpenAI(base_url=os.environ["BASE_URL"], api_key=os.environ["API_KEY"], max_retries=0)
ask = dict(model=os.environ["MODEL"], input="hello world", max_output_tokens=8, temperature=0)
whole = client.responses.create(**ask)
events = list(client.responses.create(stream=True, **ask))
print(json.dumps({"whole": whole.model_dump(), "events": [e.model_dump() for e in events]}))
`;
    const ran = await runPython(["-c", script], {
      BASE_URL: `${hub.url}/v1`,
      API_KEY: alice,
      MODEL: `${MODEL}:local`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    type Response = {
      status: string;
      incomplete_details: { reason: string } | null;
      output: { content?: { text: string }[] }[];
      usage: { input_tokens: number; output_tokens: number; total_tokens: number };
    };
    const found = JSON.parse(ran.stdout) as {
      whole: Response;
      events: { type: string; delta?: string; response?: Response }[];
    };
    const prompt = templated([{ role: "user", content: "hello world" }]);
    const promptTokens = await engine.countTokens(SERVED, prompt);
    // The tiny model's random weights never end an answer of their own: it stops at max_output_tokens.
    const completed = found.events.at(-1);
    expect(completed?.type).toBe("response.incomplete");
    for (const response of [found.whole, completed!.response!]) {
      expect(response.status).toBe("incomplete");
      expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
      expect(response.usage.input_tokens).toBe(promptTokens);
      expect(response.usage.output_tokens).toBeGreaterThan(0);
      expect(response.usage.total_tokens).toBe(response.usage.input_tokens + response.usage.output_tokens);
    }
    // The streamed deltas make the text the completed response holds; at temperature 0, the whole one's too.
    const streamed = found.events.flatMap((event) =>
      event.type === "response.output_text.delta" ? [event.delta ?? ""] : [],
    );
    const text = (response: Response) =>
      response.output
        .flatMap((item) => item.content ?? [])
        .map((part) => part.text)
        .join("");
    expect(streamed.join("")).toBe(text(completed!.response!));
    expect(text(found.whole)).toBe(text(completed!.response!));
    expect(text(found.whole).length).toBeGreaterThan(0);
  });

  it("applies logit_bias and the frequency and presence penalties to the tokens it samples", async () => {
    const complete = async (extra: Record<string, unknown>) =>
      (
        await client.completions.create({
          model: `${MODEL}:local`,
          prompt: "hello world",
          max_tokens: 12,
          temperature: 0,
          ...extra,
        } as OpenAI.CompletionCreateParamsNonStreaming)
      ).choices[0]?.text;
    const greedy = await complete({});
    // Token 259 is the tiny vocabulary's "▁hello" (make-tiny-gguf.py): raised by 100, greedy picks it every time.
    const forced = await complete({ logit_bias: { "259": 100 } });
    expect(forced).toContain("hello hello hello hello");
    expect(forced).not.toBe(greedy);
    // Raised less, it wins some of the time; each penalty, counting the answer's own "hello"s, makes it fewer.
    const hellos = async (extra: Record<string, unknown>) =>
      ((await complete({ max_tokens: 24, ...extra })) ?? "").split("hello").length - 1;
    const often = await hellos({ logit_bias: { "259": 10 } });
    expect(often).toBeGreaterThan(4);
    expect(await hellos({ logit_bias: { "259": 10 }, frequency_penalty: 2 })).toBeLessThan(often);
    const sometimes = await hellos({ logit_bias: { "259": 6 } });
    expect(sometimes).toBeGreaterThan(1);
    expect(await hellos({ logit_bias: { "259": 6 }, presence_penalty: 2 })).toBeLessThan(sometimes);
    // A negative frequency penalty rewards repeating: the random model then says one thing over and over.
    const repeated = await complete({ frequency_penalty: -2 });
    expect(repeated).toMatch(/^(.)\1{8,}$/su);
    // Defaults and nulls change nothing.
    expect(await complete({ frequency_penalty: 0, presence_penalty: null, logit_bias: null })).toBe(greedy);
  });

  it("refuses out-of-range penalties and biases, best_of and suffix, naming the parameter", async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 301 }, (_, token) => [String(token + 3), 1]));
    for (const [extra, words] of [
      [{ frequency_penalty: 2.5 }, "frequency_penalty"],
      [{ presence_penalty: -3 }, "presence_penalty"],
      [{ logit_bias: { "259": 101 } }, "logit_bias"],
      [{ logit_bias: { hello: 1 } }, "token id"],
      [{ logit_bias: tooMany }, "at most 300 tokens"],
      [{ logit_bias: { "100000": -100 } }, "token 100000, which this model does not have"],
      [{ logit_bias: { "2": -100 } }, "token 2, which ends the answer"],
      [{ best_of: 3 }, "best_of"],
      [{ suffix: "the end" }, "suffix"],
    ] as const) {
      const refused = await api(alice, "POST", "/v1/completions", {
        model: `${MODEL}:local`,
        prompt: "hello",
        max_tokens: 1,
        ...extra,
      });
      expect([refused.status, await refused.text()]).toEqual([400, expect.stringContaining(words)]);
    }
    const plain = await api(alice, "POST", "/v1/completions", {
      model: `${MODEL}:local`,
      prompt: "hello",
      max_tokens: 1,
      best_of: 1,
      suffix: null,
      stream_options: null,
    });
    expect(plain.status).toBe(200);
  });

  it("gives the template text parts as the text they hold; refuses an image part", async () => {
    const ask = async (content: unknown) =>
      api(alice, "POST", "/v1/chat/completions", {
        model: `${MODEL}:local`,
        messages: [{ role: "user", content }],
        max_tokens: 1,
      });
    const asString = (await (await ask("hello world")).json()) as { usage: { prompt_tokens: number } };
    const asParts = (await (
      await ask([
        { type: "text", text: "hello " },
        { type: "text", text: "world" },
      ])
    ).json()) as { usage: { prompt_tokens: number } };
    // The same prompt, not the list's repr.
    expect(asParts.usage.prompt_tokens).toBe(asString.usage.prompt_tokens);
    const image = await ask([{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }]);
    expect(image.status).toBe(400);
    expect(await image.text()).toContain("text models only");
  });

  it("refuses a prompt far past its context before tokenizing it; the hub answers meanwhile", async () => {
    // llama.cpp's tokenizer takes time that grows faster than the text: 4.8 MB held the hub for minutes.
    const started = Date.now();
    const refused = await api(alice, "POST", "/v1/completions", {
      model: `${MODEL}:local`,
      prompt: "hello world ".repeat(100_000),
      max_tokens: 1,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("characters are read");
    expect(Date.now() - started).toBeLessThan(10_000);
    // Messages too long for the context, through the chat template: said so.
    const chat = await api(alice, "POST", "/v1/chat/completions", {
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello world ".repeat(100_000) }],
      max_tokens: 1,
    });
    expect(chat.status).toBe(400);
    expect(await chat.text()).toContain("shorten the messages");
  });

  it("queues 8 concurrent calls within its limit (2 at once, 6 waiting)", async () => {
    const before = engine.stats().peakRunning;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        client.chat.completions.create({
          model: `${MODEL}:local`,
          messages: [{ role: "user", content: `call ${index}` }],
          max_tokens: 8,
        }),
      ),
    );
    expect(answers.every((answer) => (answer.usage?.completion_tokens ?? 0) > 0)).toBe(true);
    expect(Math.max(before, engine.stats().peakRunning)).toBeLessThanOrEqual(2);
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("answers a ninth call past the queue 503 with Retry-After", async () => {
    // Every slot and queue place held (deterministically, rather than by racing calls).
    const held = [await engine.admission.enter(), await engine.admission.enter()];
    const waiting = Array.from({ length: 6 }, () => engine.admission.enter());
    expect(engine.stats()).toMatchObject({ running: 2, waiting: 6 });
    const refused = await api(alice, "POST", "/v1/chat/completions", {
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello" }],
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.text()).toContain("LOCAL_PROVIDER_QUEUE");
    // Each release lets the next waiting call in, in order.
    for (const release of held) release();
    for (const entered of waiting) (await entered)();
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("gives up a queued call's place when its caller leaves", async () => {
    const held = [await engine.admission.enter(), await engine.admission.enter()];
    try {
      const leaving = new AbortController();
      const call = fetch(`${hub.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          model: `${MODEL}:local`,
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        }),
        signal: leaving.signal,
      }).catch(() => undefined);
      const deadline = Date.now() + 10_000;
      while (engine.stats().waiting === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(engine.stats().waiting).toBe(1);
      // The caller leaves: the router's call to the local provider ends, and with it the wait for a slot.
      leaving.abort();
      await call;
      while (engine.stats().waiting > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(engine.stats()).toMatchObject({ running: 2, waiting: 0 });
    } finally {
      for (const release of held) release();
    }
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("unloads the model when idle and loads it again on the next call", async () => {
    const loads = engine.stats().loads;
    const deadline = Date.now() + 20_000;
    while (engine.stats().loadedModels.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(engine.stats().loadedModels).toEqual([]);
    const answer = await client.completions.create({
      model: `${MODEL}:local`,
      prompt: "hello",
      max_tokens: 4,
    });
    expect(answer.usage?.completion_tokens).toBeGreaterThan(0);
    expect(engine.stats()).toMatchObject({ loads: loads + 1, loadedModels: [SERVED] });
    // The admin page's state: loaded now.
    const listed = await api(ADMIN_TOKEN, "GET", "/api/admin/local-provider");
    expect(await listed.json()).toMatchObject({ models: [{ modelId: MODEL, state: "loaded" }] });
  });

  it("keeps a private model's local provider to those who may read it", async () => {
    expect((await api(alice, "PUT", `/api/models/${MODEL}/settings`, { private: true })).status).toBe(200);
    // The router reads a model's visibility at most MODEL_ROUTE_TTL_MS late (model-routing.ts).
    await new Promise((resolve) => setTimeout(resolve, MODEL_ROUTE_TTL_MS + 200));
    const mallory = await userToken(hub.store, "mallory");
    const outsider = await api(mallory, "POST", "/v1/chat/completions", {
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello" }],
    });
    expect(outsider.status).toBe(404);
    const owner = await client.chat.completions.create({
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 2,
    });
    expect(owner.usage?.completion_tokens).toBeGreaterThan(0);
  });
});

describe("the local provider, a GGUF uploaded the way huggingface_hub uploads by default (through Xet)", () => {
  const XET_MODEL = "alice/xet-llama-GGUF";
  const XET_FILE = "xet-llama-F32.gguf";

  /** Writes a tiny GGUF (weights from `seed`) and commits it with huggingface_hub's upload_file, hf_xet on. */
  async function uploadThroughXet(seed: number): Promise<string> {
    const path = join(hub.dir, `xet-${seed}.gguf`);
    const made = await runPython([MAKE_GGUF, path, String(seed)], {}, 60_000);
    expect(made.code, made.stderr).toBe(0);
    const script = [
      "import sys",
      "from huggingface_hub import HfApi",
      "api = HfApi()",
      "api.create_repo(sys.argv[2], exist_ok=True)",
      "api.upload_file(path_or_fileobj=sys.argv[1], path_in_repo=sys.argv[3], repo_id=sys.argv[2])",
    ].join("\n");
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home-xet"), { HF_TOKEN: alice });
    delete env.HF_HUB_DISABLE_XET;
    const uploaded = await runPython(["-c", script, path, XET_MODEL, XET_FILE], env, 120_000);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  }

  let firstSha256 = "";

  it("serves a GGUF whose bytes the hub keeps as Xet chunks", async () => {
    const sha256 = await uploadThroughXet(7);
    firstSha256 = sha256;
    // Stored as Xet chunks, not in the blob store: the case the local provider must read too.
    expect(await hub.store.xet.fileBySha256(sha256)).toBeDefined();
    const enabled = await api(ADMIN_TOKEN, "PUT", "/api/admin/local-provider/models", {
      model: XET_MODEL,
      quantization: "F32",
    });
    expect(enabled.status, await enabled.clone().text()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
    const answer = await client.chat.completions.create({
      model: `${XET_MODEL}:local`,
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 4,
    });
    expect(answer.usage?.completion_tokens).toBeGreaterThan(0);
  }, 180_000);

  it("serves a new commit's file as soon as it is committed, while the old one is still loaded", async () => {
    const greedy = async () =>
      (
        await client.completions.create({
          model: `${XET_MODEL}:local`,
          prompt: "hello world",
          max_tokens: 8,
          temperature: 0,
        })
      ).choices[0]?.text;
    const before = await greedy();
    const loads = engine.stats().loads;
    // Calls keep the old file loaded (never idle) while the new commit lands.
    let uploading = true;
    const busy = (async () => {
      while (uploading) await greedy();
    })();
    // Copies made over a minute ago (the grace a copy keeps after its model moves on).
    const copies = join(hub.dataDir, "local-models");
    const aMinuteAgo = new Date(Date.now() - 120_000);
    for (const name of readdirSync(copies)) utimesSync(join(copies, name), aMinuteAgo, aMinuteAgo);
    let newSha256 = "";
    try {
      newSha256 = await uploadThroughXet(8);
    } finally {
      uploading = false;
      await busy;
    }
    const after = await greedy();
    // Other weights (seed 8, not 7), loaded once, from the committed file, by the first call after the commit.
    expect(engine.stats().loads).toBe(loads + 1);
    expect(engine.stats().loadedModels).toEqual([`${XET_MODEL}@F32`]);
    expect(after).not.toBe(before);
    expect(await greedy()).toBe(after);
    // The old revision's copy is gone from disk; the new one and the other enabled model's are kept.
    const kept = readdirSync(copies);
    expect(kept).toContain(`${newSha256}.gguf`);
    expect(kept).not.toContain(`${firstSha256}.gguf`);
    expect(kept.length).toBe(2);
  }, 180_000);
});

describe("the local provider, a GGUF whose chat template is hostile", () => {
  const HOSTILE = "alice/hostile-template-GGUF";
  const templates = {
    loop: "{% for i in range(100000000) %}x{% endfor %}",
    internals: "{{ messages.__class__.__mro__ }}",
    recursion: "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
    huge: "{{ 'x' * 9000000 }}",
  };

  it("answers each a clear 400, and the hub keeps serving", async () => {
    const files = Object.entries(templates).map(([name, template]) => ({
      name,
      path: join(hub.dir, `hostile-${name}-F32.gguf`),
      template,
    }));
    for (const file of files) {
      const made = await runPython([MAKE_GGUF, file.path, "3", file.template], {}, 60_000);
      expect(made.code, made.stderr).toBe(0);
    }
    const script = [
      "import sys",
      "from huggingface_hub import HfApi",
      "api = HfApi()",
      "api.create_repo(sys.argv[1], exist_ok=True)",
      "for path in sys.argv[2:]:",
      "    api.upload_file(path_or_fileobj=path, path_in_repo=path.rsplit('/', 1)[1], repo_id=sys.argv[1])",
    ].join("\n");
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home-hostile"), { HF_TOKEN: alice });
    const uploaded = await runPython(
      ["-c", script, HOSTILE, ...files.map((file) => file.path)],
      env,
      120_000,
    );
    expect(uploaded.code, uploaded.stderr).toBe(0);
    // One quantization per file: the hostile word names it (hostile-loop-F32.gguf is quantization LOOP).
    for (const { name } of files) {
      const enabled = await api(ADMIN_TOKEN, "PUT", "/api/admin/local-provider/models", {
        model: HOSTILE,
        quantization: name.toUpperCase(),
      });
      expect(enabled.status, await enabled.clone().text()).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
    for (const { name } of files) {
      // Served names are reached through the provider's own server, each quantization by its served name.
      const started = Date.now();
      const answer = engine.generate(
        `${HOSTILE}@${name.toUpperCase()}`,
        { messages: [{ role: "user", content: "hi" }] },
        { maxTokens: 1, temperature: 0 },
      );
      await expect(answer.next(), name).rejects.toThrow(/chat template could not render/);
      expect(Date.now() - started, name).toBeLessThan(5_000);
    }
    // Through /v1 (the first quantization, HUGE, serves `owner/name`): a 400 that names the template.
    const refused = await api(alice, "POST", "/v1/chat/completions", {
      model: `${HOSTILE}:local`,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("chat template could not render");
  }, 180_000);

  it("answers a GGUF llama.cpp cannot load with what to do, not this machine's paths", async () => {
    const whole = join(hub.dir, "hostile-broken-whole.gguf");
    const made = await runPython([MAKE_GGUF, whole, "5"], {}, 60_000);
    expect(made.code, made.stderr).toBe(0);
    const path = join(hub.dir, "hostile-broken-F32.gguf");
    writeFileSync(path, readFileSync(whole).subarray(0, 200_000));
    const script = [
      "import sys",
      "from huggingface_hub import HfApi",
      "HfApi().upload_file(path_or_fileobj=sys.argv[2], path_in_repo='hostile-broken-F32.gguf', repo_id=sys.argv[1])",
    ].join("\n");
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home-hostile"), { HF_TOKEN: alice });
    const uploaded = await runPython(["-c", script, HOSTILE, path], env, 120_000);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const enabled = await api(ADMIN_TOKEN, "PUT", "/api/admin/local-provider/models", {
      model: HOSTILE,
      quantization: "BROKEN",
    });
    expect(enabled.status, await enabled.clone().text()).toBe(200);
    const answer = engine.generate(
      `${HOSTILE}@BROKEN`,
      { messages: [{ role: "user", content: "hi" }] },
      { maxTokens: 1, temperature: 0 },
    );
    const error = await answer.next().then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toContain("could not load the GGUF file");
    expect(error?.message).not.toContain(hub.dataDir);
    // Called again, the same file is refused at once: llama.cpp is not asked to load it again (a load evicts
    // the idle models other callers use first).
    const failures = engine.stats().loadFailures;
    expect(failures).toBeGreaterThan(0);
    const again = engine.generate(
      `${HOSTILE}@BROKEN`,
      { messages: [{ role: "user", content: "hi" }] },
      { maxTokens: 1, temperature: 0 },
    );
    await expect(again.next()).rejects.toThrow(/could not load the GGUF file/);
    expect(engine.stats().loadFailures).toBe(failures);
  }, 120_000);

  it("does not load a file replaced at main by one over the size limit it was enabled under", async () => {
    const path = join(hub.dir, "hostile-huge-F32.gguf");
    writeFileSync(path, randomBytes(1_500_000));
    const script = [
      "import sys",
      "from huggingface_hub import HfApi",
      "HfApi().upload_file(path_or_fileobj=sys.argv[2], path_in_repo='hostile-huge-F32.gguf', repo_id=sys.argv[1])",
    ].join("\n");
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home-hostile"), { HF_TOKEN: alice });
    const uploaded = await runPython(["-c", script, HOSTILE, path], env, 120_000);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const answer = engine.generate(
      `${HOSTILE}@HUGE`,
      { messages: [{ role: "user", content: "hi" }] },
      { maxTokens: 1, temperature: 0 },
    );
    await expect(answer.next()).rejects.toThrow(/LOCAL_PROVIDER_MAX_MODEL_BYTES/);
  }, 120_000);
});

describe("the local provider, a GGUF whose tokenizer asks for BOS", () => {
  const BOS_MODEL = "alice/bos-llama-GGUF";

  it("begins a plain prompt with BOS, and counts it", async () => {
    const path = join(hub.dir, "bos-llama-F32.gguf");
    const made = await runPython([MAKE_GGUF, path, "11"], { TINY_GGUF_ADD_BOS: "1" }, 60_000);
    expect(made.code, made.stderr).toBe(0);
    const script = [
      "import sys",
      "from huggingface_hub import HfApi",
      "api = HfApi()",
      "api.create_repo(sys.argv[1], exist_ok=True)",
      "api.upload_file(path_or_fileobj=sys.argv[2], path_in_repo='bos-llama-F32.gguf', repo_id=sys.argv[1])",
    ].join("\n");
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home-bos"), { HF_TOKEN: alice });
    const uploaded = await runPython(["-c", script, BOS_MODEL, path], env, 120_000);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const enabled = await api(ADMIN_TOKEN, "PUT", "/api/admin/local-provider/models", {
      model: BOS_MODEL,
      quantization: "F32",
    });
    expect(enabled.status, await enabled.clone().text()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
    const answer = await client.completions.create({
      model: `${BOS_MODEL}:local`,
      prompt: "hello world",
      max_tokens: 1,
    });
    // The text's tokens and the BOS the tokenizer asks for.
    expect(answer.usage?.prompt_tokens).toBe(
      (await engine.countTokens(`${BOS_MODEL}@F32`, "hello world")) + 1,
    );
    // A chat template that writes BOS itself gets no second one.
    const chat = await client.chat.completions.create({
      model: `${BOS_MODEL}:local`,
      messages: [{ role: "user", content: "hello world" }],
      max_tokens: 1,
    });
    const rendered = templated([{ role: "user", content: "hello world" }]);
    expect(chat.usage?.prompt_tokens).toBe(await engine.countTokens(`${BOS_MODEL}@F32`, rendered));
  }, 120_000);
});
