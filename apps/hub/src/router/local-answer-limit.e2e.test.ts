import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { LocalEngine } from "./local-engine.js";
import { createLocalProviderTable } from "./local-provider-table.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * The local provider's own time limit on an answer (LOCAL_PROVIDER_ANSWER_SECONDS), injected small. A whole
 * answer's head comes only at its end, so the wait for a slot and the generation all come before it: past the
 * limit the caller is told so by the local provider itself, not by the router's timeout for its head. Every
 * slot is held (as the local provider's e2e test does), so that the call waits in the queue for longer than the
 * limit: no model is ever loaded, and the enabled file need not exist.
 */
const MODEL = "Qwen/Qwen2.5-7B-Instruct";
const ANSWER_MS = 400;

let engine: LocalEngine;
const hub = useTestHub({
  localProvider: {
    limits: { concurrency: 1, queue: 2, answerMs: ANSWER_MS },
    expose: (exposed) => {
      engine = exposed;
    },
  },
});
let client: OpenAI;

beforeAll(async () => {
  client = new OpenAI({
    baseURL: `${hub.url}/v1`,
    apiKey: await userToken(hub.store, "alice"),
    maxRetries: 0,
  });
  await createLocalProviderTable(hub.store.db).put({
    modelId: MODEL,
    quantization: "Q4_K_M",
    filePath: "model-Q4_K_M.gguf",
    enabledBy: "admin",
    createdAt: new Date().toISOString(),
  });
  // The running hub reads its tables at most OWN_PROVIDERS_TTL_MS late.
  await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 200));
});

/** What the client raised for a call made while every slot is held. */
async function callWhileBusy(stream: boolean): Promise<unknown> {
  const held = await engine.admission.enter();
  try {
    const answer = client.chat.completions.create(
      { model: `${MODEL}:local`, messages: [{ role: "user", content: "hello" }], max_tokens: 4, stream },
      // Far past the limit, far short of the router's timeout for the head before this fix (300 s).
      { timeout: 20_000 },
    );
    return await answer.then(
      () => "answered",
      (error: unknown) => error,
    );
  } finally {
    held();
  }
}

describe("the local provider's answer limit", () => {
  it.each([false, true])("ends a call past it with a 504 saying which limit (stream: %s)", async (stream) => {
    const error = await callWhileBusy(stream);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const { status, message } = error as InstanceType<typeof OpenAI.APIError>;
    expect(status).toBe(504);
    expect(message).toMatch(/did not finish the answer within its limit of 0.4 s/);
    expect(message).toMatch(/LOCAL_PROVIDER_ANSWER_SECONDS/);
    // The queued call left its place when it ran out of time.
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  });
});
