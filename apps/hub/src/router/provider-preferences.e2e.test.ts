import { InferenceClient } from "@modelhub/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import { grantGatedModelsToEveryone } from "./__fixtures__/gated-grants.js";

/**
 * A user's order of inference providers (Settings > Inference Providers): set through the API, then used by
 * the router whenever the caller names no provider. Another user's calls keep the hub's default order.
 */
const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
let setup: SimHub;
let writeToken: string;
let readToken: string;
let otherToken: string;

beforeAll(async () => {
  setup = await startHubOnSim();
  writeToken = await userToken(setup.hub.store, "prefers", "write");
  readToken = await userToken(setup.hub.store, "prefers", "read");
  otherToken = await userToken(setup.hub.store, "default-order", "read");
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(setup.hub.store);
}, 60_000);
afterAll(() => setup?.close());

const settings = (token: string, method = "GET", body?: unknown) =>
  fetch(`${setup.hub.url}/api/settings/inference-providers`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function providerAnswering(token: string): Promise<string | null> {
  const response = await fetch(`${setup.hub.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "Hi" }] }),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get("x-inference-provider");
}

describe("the user's provider order", () => {
  it("starts empty and lists the providers there are", async () => {
    const answer = await settings(writeToken);
    expect(answer.status).toBe(200);
    // Settings are managed with a write token or a web session, as access tokens are.
    expect((await settings(readToken)).status).toBe(403);
    const body = (await answer.json()) as { providers: string[]; available: Array<{ id: string }> };
    expect(body.providers).toEqual([]);
    expect(body.available.map((p) => p.id)).toContain("together");
  });

  it("is refused when unknown, repeated, or set with a read token", async () => {
    expect((await settings(writeToken, "PUT", { providers: ["nope"] })).status).toBe(400);
    expect((await settings(writeToken, "PUT", { providers: ["groq", "groq"] })).status).toBe(400);
    expect((await settings(writeToken, "PUT", ["groq"])).status).toBe(400);
    expect((await settings(readToken, "PUT", { providers: ["groq"] })).status).toBe(403);
  });

  it("decides which provider the router calls when none is named", async () => {
    const mappings = await setup.hub.store.mappings.forModel(MODEL);
    const live = Object.keys(mappings).filter(
      (p) => mappings[p]!.status === "live" && mappings[p]!.task === "conversational",
    );
    expect(live.length).toBeGreaterThan(1);
    const defaultFirst = await providerAnswering(otherToken);
    const wanted = live.find((p) => p !== defaultFirst)!;

    const saved = await settings(writeToken, "PUT", { providers: [wanted] });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { providers: string[] }).providers).toEqual([wanted]);
    expect(((await (await settings(writeToken)).json()) as { providers: string[] }).providers).toEqual([
      wanted,
    ]);

    // Calls with any of the user's tokens follow it.
    expect(await providerAnswering(readToken)).toBe(wanted);
    // Another user keeps the hub's default order.
    expect(await providerAnswering(otherToken)).toBe(defaultFirst);

    // The model API lists the user's mappings in their order: clients' `provider: "auto"` takes the first.
    const info = await fetch(`${setup.hub.url}/api/models/${MODEL}?expand[]=inferenceProviderMapping`, {
      headers: { authorization: `Bearer ${readToken}` },
    });
    const listed = (await info.json()) as { inferenceProviderMapping: Record<string, unknown> };
    expect(Object.keys(listed.inferenceProviderMapping)[0]).toBe(wanted);
    const client = new InferenceClient(readToken, {
      hubUrl: setup.hub.url,
      routerUrl: `${setup.hub.url}/router`,
      mappingTtlMs: 0,
    });
    const before = setup.sim.requests.length;
    await client.chatCompletion({
      model: MODEL,
      provider: "auto",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(setup.sim.requests.slice(before).map((r) => r.provider)).toEqual([wanted]);

    // Back to the default order.
    expect((await settings(writeToken, "PUT", { providers: [] })).status).toBe(200);
    expect(await providerAnswering(readToken)).toBe(defaultFirst);
  });
});
