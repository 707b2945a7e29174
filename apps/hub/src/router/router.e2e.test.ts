import { request as httpRequest } from "node:http";
import { InferenceClient } from "@modelhub/inference";
import type { ProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../__fixtures__/seeded-app.js";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import { createMemoryLogger } from "../logger.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone } from "./__fixtures__/gated-grants.js";

/**
 * End to end: a real hub on loopback (real SQLite file), provider-sim as every provider, and the inference
 * client resolving mappings from the hub and calling through the hub's router.
 */
let setup: SimHub | undefined;
let sim: ProviderSim;
let hub: RunningHub;
let token: string;
let revokedToken: string;
const logger = createMemoryLogger();

async function issue(name: string): Promise<{ id: number; token: string }> {
  const response = await fetch(`${hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  return (await response.json()) as { id: number; token: string };
}

beforeAll(async () => {
  setup = await startHubOnSim({
    routerTimeouts: { headersMs: 1500 },
    forwardSimHeaders: true,
    logger,
  });
  ({ hub, sim } = setup);
  token = (await issue("e2e")).token;
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
  const revoked = await issue("revoked");
  revokedToken = revoked.token;
  await fetch(`${hub.url}/api/admin/tokens/${revoked.id}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => sim.clearRequests());

const client = () =>
  new InferenceClient(token, { hubUrl: hub.url, routerUrl: `${hub.url}/router`, retryOnError: false });
const messages = [{ role: "user" as const, content: "What is the capital of France?" }];

describe("the inference client through the hub's router", () => {
  it("resolves the model's mapping from the hub and completes a chat", async () => {
    const output = await client().chatCompletion({
      model: "meta-llama/Llama-3.1-8B-Instruct",
      provider: "together",
      messages,
      max_tokens: 50,
    });
    expect(output.choices[0]?.message.content).toEqual(expect.any(String));
    const upstream = sim.requests.filter((r) => r.provider === "together");
    expect(upstream).toHaveLength(1);
    // The mapping's provider id reached the provider, and the caller's token did not.
    expect(upstream[0]?.json).toMatchObject({ model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo" });
    expect(JSON.stringify(upstream[0])).not.toContain(token);
  });

  it("streams a chat, delta by delta, to the [DONE] marker", async () => {
    let text = "";
    let chunks = 0;
    for await (const chunk of client().chatCompletionStream({
      model: "deepseek-ai/DeepSeek-R1",
      provider: "fireworks-ai",
      messages,
    })) {
      text += chunk.choices[0]?.delta.content ?? "";
      chunks++;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text.length).toBeGreaterThan(0);
    expect(
      sim.requests.some(
        (r) => r.provider === "fireworks-ai" && r.path === "/fireworks-ai/inference/v1/chat/completions",
      ),
    ).toBe(true);
  });

  it("records usage per token, provider and model", async () => {
    const response = await fetch(`${hub.url}/api/admin/usage`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const usage = (await response.json()) as Array<{
      provider: string;
      model: string;
      requests: number;
      responseBytes: number;
    }>;
    expect(usage).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          provider: "together",
          model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
          requests: 1,
        }),
        expect.objectContaining({ provider: "fireworks-ai", model: "accounts/fireworks/models/deepseek-r1" }),
      ]),
    );
    expect(usage.every((row) => row.responseBytes > 0)).toBe(true);
  });
});

describe("router streaming", () => {
  const chat = (headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo", messages, stream: true }),
      signal,
    });

  it("passes events on as they arrive and cancels upstream when the caller disconnects", async () => {
    const abort = new AbortController();
    // A stream far too long to finish during the test: the first event can only arrive if nothing buffers.
    // As a browser calls from another origin (Origin sent): CORS headers too.
    const response = await chat(
      { "x-sim-stream-chunks": "5000000", Origin: "https://elsewhere.example" },
      abort.signal,
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("data: ");
    expect(sim.activeStreams).toBe(1);
    abort.abort();
    await reader.cancel().catch(() => {});
    await expect.poll(() => sim.activeStreams, { timeout: 3000 }).toBe(0);
  });

  it("cuts the caller's connection when the provider drops the stream midway", async () => {
    const response = await chat({ "x-sim-fault": "drop-stream:2" });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    await expect
      .poll(async () =>
        (await hub.store.usage.summary()).some((row) => row.provider === "together" && row.errors > 0),
      )
      .toBe(true);
  });

  it("passes provider errors through with their status, and never leaks the hub's credential", async () => {
    const response = await chat({ "x-sim-fault": "rate-limit:7" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    const text = await response.text();
    expect(text).not.toMatch(/hf_sim/);
  });

  it("answers 504 when the provider does not answer in time", async () => {
    const response = await chat({ "x-sim-fault": "delay:2500" });
    expect(response.status).toBe(504);
    expect(((await response.json()) as { code: string }).code).toBe("upstream_timeout");
  });
});

function rawPost(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: "POST", headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end(JSON.stringify({ model: "x", messages }));
  });
}

describe("router refusals: clear 4xx JSON, nothing forwarded, nothing recorded", () => {
  const cases: Array<[string, string, Record<string, string>, number, string]> = [
    ["no token", "/router/together/v1/chat/completions", {}, 401, "unauthorized"],
    [
      "wrong token",
      "/router/together/v1/chat/completions",
      { Authorization: `Bearer hf_${"x".repeat(34)}` },
      401,
      "unauthorized",
    ],
    [
      "not a hub token",
      "/router/together/v1/chat/completions",
      { Authorization: "Bearer sk-abc" },
      401,
      "unauthorized",
    ],
    [
      "revoked token",
      "/router/together/v1/chat/completions",
      { Authorization: "REVOKED" },
      401,
      "unauthorized",
    ],
    ["unknown provider", "/router/acme-ai/v1/chat/completions", { Authorization: "VALID" }, 404, "not_found"],
    [
      "dot-dot segment",
      "/router/together/v1/../../api/admin/tokens",
      { Authorization: "VALID" },
      400,
      "invalid_input",
    ],
    ["encoded dot-dot", "/router/together/v1/%2E%2E/admin", { Authorization: "VALID" }, 400, "invalid_input"],
    ["encoded slash", "/router/together/v1%2F..%2Fadmin", { Authorization: "VALID" }, 400, "invalid_input"],
    ["no provider path", "/router/together/", { Authorization: "VALID" }, 400, "invalid_input"],
  ];
  it.each(cases)("%s", async (_name, path, headers, status, code) => {
    const usageBefore = (await hub.store.usage.summary()).reduce((n, row) => n + row.requests, 0);
    const authorization =
      headers.Authorization === "VALID"
        ? `Bearer ${token}`
        : headers.Authorization === "REVOKED"
          ? `Bearer ${revokedToken}`
          : headers.Authorization;
    // Raw HTTP, so that the path reaches the hub exactly as written (fetch would normalise "..").
    const response = await rawPost(path, {
      "Content-Type": "application/json",
      ...(authorization ? { Authorization: authorization } : {}),
    });
    expect(response.status).toBe(status);
    const body = JSON.parse(response.body) as { code: string; error: string };
    expect(body.code).toBe(code);
    expect(body.error).not.toContain(token);
    expect(sim.requests).toHaveLength(0);
    expect((await hub.store.usage.summary()).reduce((n, row) => n + row.requests, 0)).toBe(usageBefore);
  });

  it("refuses a body over the router limit with 413 before calling the provider", async () => {
    const response = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: "x".repeat(33 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(sim.requests).toHaveLength(0);
  });

  it("never writes a token to the logs", () => {
    const logs = logger.lines.join("\n");
    expect(logs).toContain('"msg":"router call"');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(revokedToken);
    expect(logs).not.toContain("hf_sim");
  });
});

describe("the router's log", () => {
  it("writes one line per call, the request's fields with the call's, through /v1 and /router/{provider}", async () => {
    for (const [path, model] of [
      ["/v1/chat/completions", "meta-llama/Llama-3.1-8B-Instruct:together"],
      ["/router/together/v1/chat/completions", "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo"],
    ] as const) {
      const requestId = `one-line-${path.length}`;
      const response = await fetch(`${hub.url}${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "X-Request-Id": requestId,
        },
        body: JSON.stringify({ model, messages, stream: true }),
      });
      expect(response.status, path).toBe(200);
      await response.text();
      // The call's line is written at its end, after the answer's last byte left.
      const deadline = Date.now() + 2000;
      const linesOf = () =>
        logger.lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.requestId === requestId);
      while (linesOf().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const lines = linesOf();
      expect(lines, path).toHaveLength(1);
      expect(lines[0], path).toMatchObject({
        level: "info",
        msg: "router call",
        method: "POST",
        path,
        status: 200,
        ms: expect.any(Number),
        provider: "together",
        durationMs: expect.any(Number),
        responseBytes: expect.any(Number),
      });
    }
  });
});

describe("a token revoked while in use", () => {
  it("is refused on its very next call, through /router/{provider} and /v1", async () => {
    const { id, token: used } = await issue("revoked-in-use");
    const call = (path: string, model: string) =>
      fetch(`${hub.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${used}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model, messages, max_tokens: 5 }),
      });
    const perProvider = () =>
      call("/router/together/v1/chat/completions", "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo");
    const openAi = () => call("/v1/chat/completions", "meta-llama/Llama-3.1-8B-Instruct:together");
    // Verified and authorized once, then reused from the caches (token, verdict, model routes).
    for (let i = 0; i < 3; i++) {
      expect((await perProvider()).status).toBe(200);
      expect((await openAi()).status).toBe(200);
    }
    const revoked = await fetch(`${hub.url}/api/admin/tokens/${id}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.ok).toBe(true);
    expect((await perProvider()).status).toBe(401);
    expect((await openAi()).status).toBe(401);
  });
});
