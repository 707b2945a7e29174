import { join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { LocalEngine } from "./local-engine.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * The local provider's answer limit (LOCAL_PROVIDER_ANSWER_SECONDS) reached in the middle of a stream: a tiny
 * random-weight GGUF with a long context, one word raised by logit_bias so that the answer never ends by itself
 * (the end-of-text token cannot be biased), asked for more tokens than it generates within the limit. The head and the first tokens went out before the limit: the stream
 * ends with the documented error event, which the caller's OpenAI client raises rather than return a cut answer.
 */
const MODEL = "alice/long-llama-GGUF";
const FILE = "long-llama-F32.gguf";
const MAKE_GGUF = fileURLToPath(new URL("./__fixtures__/make-tiny-gguf.py", import.meta.url));
const CONTEXT = 8192;
const ANSWER_MS = 1500;
const ADMIN_TOKEN = "admin-token-local-stream-limit";
/** The tiny vocabulary's "▁hello" (make-tiny-gguf.py): raised by 100, picked every time, never the end of text. */
const HELLO = "259";

let engine: LocalEngine;
const hub = useTestHub({
  adminToken: ADMIN_TOKEN,
  localProvider: {
    maxModelBytes: 4_000_000,
    limits: { concurrency: 1, queue: 2, threads: 1, contextSize: CONTEXT, answerMs: ANSWER_MS },
    expose: (exposed) => {
      engine = exposed;
    },
  },
});
let alice: string;
let client: OpenAI;

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: alice, maxRetries: 0 });
  const path = join(hub.dir, FILE);
  const made = await runPython([MAKE_GGUF, path, "12"], { TINY_GGUF_CONTEXT: String(CONTEXT) }, 60_000);
  expect(made.code, made.stderr).toBe(0);
  const script = [
    "import sys",
    "from huggingface_hub import HfApi",
    "api = HfApi()",
    "api.create_repo(sys.argv[1], exist_ok=True)",
    `api.upload_file(path_or_fileobj=sys.argv[2], path_in_repo='${FILE}', repo_id=sys.argv[1])`,
  ].join("\n");
  const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: alice });
  const uploaded = await runPython(["-c", script, MODEL, path], env, 120_000);
  expect(uploaded.code, uploaded.stderr).toBe(0);
  const enabled = await fetch(`${hub.url}/api/admin/local-provider/models`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: MODEL, quantization: "F32" }),
  });
  expect(enabled.status, await enabled.clone().text()).toBe(200);
  // The running hub reads its tables at most OWN_PROVIDERS_TTL_MS late.
  await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
  // Loaded here, so that the limit is spent generating: the first load (llama.cpp's too) may take longer than
  // the limit, which the load finishes all the same.
  await client.completions
    .create({ model: `${MODEL}:local`, prompt: "hello", max_tokens: 1 })
    .catch((error: unknown) => expect(error).toMatchObject({ status: 504 }));
  expect(engine.stats().loadedModels).toEqual([`${MODEL}@F32`]);
}, 180_000);

describe("the local provider's answer limit, reached mid-stream", () => {
  it("ends the stream with an error event that the OpenAI client raises, after the first tokens", async () => {
    const started = performance.now();
    const stream = await client.chat.completions.create({
      model: `${MODEL}:local`,
      messages: [{ role: "user", content: "hello world" }],
      max_tokens: CONTEXT - 64,
      temperature: 1,
      seed: 1,
      logit_bias: { [HELLO]: 100 },
      stream: true,
    });
    let text = "";
    let finish: string | null | undefined;
    const raised = await (async () => {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    const ms = performance.now() - started;
    // Tokens came before the limit; then an error, not an answer that looks whole (no finish reason).
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBeUndefined();
    expect(raised).toBeInstanceOf(OpenAI.APIError);
    expect((raised as Error).message).toMatch(/did not finish the answer within its limit of 1.5 s/);
    expect((raised as Error).message).toMatch(/LOCAL_PROVIDER_ANSWER_SECONDS/);
    expect(ms).toBeGreaterThanOrEqual(ANSWER_MS - 50);
    expect(ms).toBeLessThan(ANSWER_MS + 5_000);
    // The slot is free again: the call ended in the provider, not only for the caller.
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  }, 30_000);
});
