/**
 * An own provider whose base URL leads back to the hub (router/hop-guard.ts), against a real hub on
 * loopback. The target checks refuse the hub's own origins, but not every name the hub answers to: another
 * of its addresses, a trailing dot, a proxy in front of it. Each completion routed there made another, so one
 * caller's call became hundreds a second until the first timed out. Rules under test: a call that comes back
 * through an own provider is refused at once (508), and a chain of hubs longer than any real one is too.
 */
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { OWN_PROVIDERS_TTL_MS } from "../router/own-providers-registry.js";

const ADMIN_TOKEN = "admin-token-own-provider-loop";
const hub = useTestHub({ adminToken: ADMIN_TOKEN });
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const OWN_KEY = `sk-own-${"k".repeat(20)}`;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
let sim: ProviderSim;

beforeAll(async () => {
  tokens = (await seedAccounts(hub.store)).tokens;
  sim = await startProviderSim({ providerKeys: { together: [OWN_KEY] } });
});
afterAll(async () => {
  await sim?.close().catch(() => {});
});

async function admin(method: string, path: string, body: unknown) {
  const response = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect([path, response.status]).toEqual([path, response.ok ? response.status : 200]);
}

/** A provider serving CHAT, and no hosted failover: its own answer is the caller's. */
async function addProvider(
  name: string,
  baseUrl: string,
  apiKey: string,
  servedName: string,
  healthPath: string,
) {
  await admin("PUT", `/${name}`, {
    baseUrl,
    apiKey,
    healthPath,
    headersTimeoutMs: 2_000,
    hostedFailover: false,
  });
  await admin("PUT", `/${name}/models`, { model: CHAT, servedName });
  await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
}

function chat(model: string, headers: Record<string, string> = {}) {
  return fetch(`${hub.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokens.raeWrite}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
}

const usageRows = async () =>
  Number((await hub.store.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM usage"))?.n ?? 0);

describe("an own provider that leads back to the hub", () => {
  it("answers the caller 508 at once instead of calling itself until a timeout", async () => {
    // The hub listens on 127.0.0.1; `localhost` is the same hub under a name its origin check does not know.
    const self = hub.url.replace("127.0.0.1", "localhost");
    expect(self).not.toBe(hub.url);
    // The provider's key is a hub token, so that every call it makes back in is let through the door.
    await addProvider("self", `${self}/v1`, tokens.adaWrite, `${CHAT}:self`, "/v1/models");
    const before = await usageRows();
    const started = performance.now();
    const answer = await chat(`${CHAT}:self`);
    const text = await answer.text();
    expect(performance.now() - started).toBeLessThan(1_500);
    expect([answer.status, JSON.parse(text).code]).toEqual([508, "loop_detected"]);
    expect(text).not.toContain(tokens.adaWrite);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The caller's call and the one that came back: not one more.
    expect((await usageRows()) - before).toBeLessThanOrEqual(2);
  });

  it("tells an own server the hubs a call went through, and refuses a chain that names this hub", async () => {
    await addProvider("gpu", `${sim.url}/together/v1`, OWN_KEY, "qwen-own", "/__sim/health");
    sim.clearRequests();
    const fromProxy = await chat(`${CHAT}:gpu`, { Via: "1.1 edge-proxy" });
    expect(fromProxy.status).toBe(200);
    const via = sim.requests.at(-1)?.headers.via;
    expect(via).toMatch(/^1\.1 edge-proxy, 1\.1 modelhub-[0-9a-f]{16}$/);

    sim.clearRequests();
    const returned = await chat(`${CHAT}:gpu`, { Via: String(via) });
    expect([returned.status, ((await returned.json()) as { code: string }).code]).toEqual([
      508,
      "loop_detected",
    ]);
    const longChain = Array.from({ length: 8 }, (_, hop) => `1.1 hub-${hop}`).join(", ");
    expect((await chat(`${CHAT}:gpu`, { Via: longChain })).status).toBe(508);
    expect(sim.requests).toEqual([]);
  });
});
