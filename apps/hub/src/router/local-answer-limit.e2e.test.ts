import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
 * limit: no model is ever loaded, and the enabled file need not exist. The router's head timeout for hosted
 * providers (ROUTER_HEADERS_MS) and an own provider's (its row's) are set shorter than the limit: the router must
 * wait for the local provider's own limit, not cut it at its timeout for the others, and the others keep theirs.
 */
const MODEL = "Qwen/Qwen2.5-7B-Instruct"; // also served by hosted providers (the in-process simulator)
const ANSWER_MS = 2500;
const ROUTER_HEADERS_MS = 1000;
const OWN_HEADERS_MS = 1000;
/** How long the slow servers (the hosted simulator through its fault header, the own one) take to answer. */
const SLOW_MS = 2000;
const ADMIN_TOKEN = "admin-token-local-answer-limit";

let engine: LocalEngine;
const hub = useTestHub({
  adminToken: ADMIN_TOKEN,
  providerSim: true,
  forwardSimHeaders: true,
  routerTimeouts: { headersMs: ROUTER_HEADERS_MS },
  // No periodic check: the own provider's health is not what is tested.
  ownProvidersHealthIntervalMs: 3_600_000,
  localProvider: {
    limits: { concurrency: 1, queue: 2, answerMs: ANSWER_MS },
    expose: (exposed) => {
      engine = exposed;
    },
  },
});
let client: OpenAI;
/** An own provider's server that answers its head SLOW_MS late (its health path at once). */
let slowServer: Server;

beforeAll(async () => {
  slowServer = createServer((request, response) => {
    if (request.method === "GET") return void response.end("ok");
    const timer = setTimeout(() => response.end(JSON.stringify({ choices: [] })), SLOW_MS);
    response.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => slowServer.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/v1`;
  for (const [path, body] of [
    ["/slow", { baseUrl, headersTimeoutMs: OWN_HEADERS_MS }],
    ["/slow/models", { model: MODEL, servedName: "slow-model" }],
  ] as const) {
    const response = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.ok, await response.text()).toBe(true);
  }
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
afterAll(async () => {
  slowServer.closeAllConnections();
  await new Promise((resolve) => slowServer.close(resolve));
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
    // The local provider's own 504, not the router's at ROUTER_HEADERS_MS (upstream_timeout): the router waited.
    expect(message).toMatch(/did not finish the answer within its limit of 2.5 s/);
    expect(message).toMatch(/LOCAL_PROVIDER_ANSWER_SECONDS/);
    // The queued call left its place when it ran out of time.
    expect(engine.stats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it.each([
    ["a hosted provider", `${MODEL}:together`, ROUTER_HEADERS_MS],
    ["an own provider", `${MODEL}:slow`, OWN_HEADERS_MS],
  ])("leaves %s its own head timeout, shorter than the local limit", async (_, model, headersMs) => {
    const started = performance.now();
    const error = await client.chat.completions
      .create(
        { model, messages: [{ role: "user", content: "hello" }], max_tokens: 4 },
        { headers: { "x-sim-fault": `delay:${SLOW_MS}` }, timeout: 20_000 },
      )
      .then(
        () => "answered",
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const { status, message } = error as InstanceType<typeof OpenAI.APIError>;
    expect(status).toBe(504);
    expect(message).toContain(`The provider did not answer within ${headersMs} ms.`);
    // Cut at its own timeout, before the slow answer and long before the local limit.
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
  });
});
