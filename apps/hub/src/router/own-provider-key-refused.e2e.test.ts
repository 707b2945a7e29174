/**
 * Answers of an own server that are about the hub, not the caller. One that refuses the hub's key for it (a key mistyped by its administrator, or rotated on the
 * server), with a health path that needs none (vLLM's `/health`), so that its checks find it up. Its 401 is
 * about the hub's key, never the caller's token: the call goes on to the next server, and when there is none
 * the caller is told what is wrong (a 502) rather than handed a 401 their client reports as their own token
 * refused. One that redirects: the caller's client would follow it with the caller's token, to wherever on the
 * hub the server's admin chose.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

const ADMIN_TOKEN = "admin-token-own-provider-key-refused";
const hub = useTestHub({ adminToken: ADMIN_TOKEN });
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const KEY = `sk-own-right-${"r".repeat(16)}`;
let sim: ProviderSim;
let token: string;
/** An OpenAI-compatible server that answers every call with a redirect into the hub. */
let redirecting: Server;

async function admin(path: string, body: unknown) {
  const response = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect([path, response.ok]).toEqual([path, true]);
}

beforeAll(async () => {
  token = (await seedAccounts(hub.store)).tokens.raeWrite;
  sim = await startProviderSim({ providerKeys: { together: [KEY] } });
  // Added first, so tried first: the server with the wrong key.
  for (const [name, apiKey] of [
    ["wrong-key", `${KEY}-typo`],
    ["right-key", KEY],
  ] as const) {
    await admin(`/${name}`, {
      baseUrl: `${sim.url}/together/v1`,
      apiKey,
      healthPath: "/__sim/health",
      hostedFailover: false,
    });
    await admin(`/${name}/models`, { model: CHAT, servedName: "qwen-own" });
  }
  redirecting = createServer((request, response) => {
    if (request.url === "/health") return void response.end("{}");
    response.writeHead(307, { location: "/api/repos/create" }).end();
  });
  await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
  await admin("/redirecting", {
    baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/v1`,
    healthPath: "/health",
    hostedFailover: false,
  });
  await admin("/redirecting/models", { model: CHAT, servedName: "qwen-own" });
  await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
});
afterAll(async () => {
  await sim?.close().catch(() => {});
  await new Promise((resolve) => redirecting?.close(resolve));
});

function chat(model: string) {
  return fetch(`${hub.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
}

describe("an own server that refuses the hub's key", () => {
  it("tells a caller who named it that the server refused the hub's key, not that their token was", async () => {
    const answer = await chat(`${CHAT}:wrong-key`);
    const text = await answer.text();
    expect([answer.status, JSON.parse(text).error]).toEqual([
      502,
      expect.stringMatching(/wrong-key refused the hub's key for it \(401\)/),
    ]);
    expect(text).not.toContain(KEY);
  });

  it("fails over to the next server, and skips it until a check finds it up", async () => {
    const first = await chat(CHAT);
    expect([first.status, first.headers.get("x-inference-provider")]).toEqual([200, "right-key"]);
    const listed = await fetch(`${hub.url}/api/admin/own-providers/wrong-key`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await listed.json()) as { health: unknown }).health).toMatchObject({
      status: "down",
      error: "refused the hub's key (401)",
    });
    sim.clearRequests();
    expect((await chat(CHAT)).headers.get("x-inference-provider")).toBe("right-key");
    expect(sim.requests.filter((request) => request.path.endsWith("/chat/completions"))).toHaveLength(1);
  });
});

describe("an own server that answers with a redirect", () => {
  it("is not passed on to the caller's client, which would follow it with the caller's token", async () => {
    const answer = await chat(`${CHAT}:redirecting`);
    expect(answer.headers.get("location")).toBeNull();
    expect([answer.status, ((await answer.json()) as { error: string }).error]).toEqual([
      502,
      expect.stringMatching(/redirecting answered with a redirect \(307\)/),
    ]);
  });
});
