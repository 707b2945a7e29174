import type { ProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import type { RunningHub } from "../start-hub.js";

/**
 * `/router/{provider}/...` with a private model named in the body: by its hub id or by the provider's id
 * for it. Callers who may not read the model get the answer of a missing model, nothing is forwarded to the
 * provider and nothing is recorded; members go through.
 */
const PRIVATE = "acme/private-chat";
const PROVIDER_ID = "acme-private-chat-v1";
let setup: SimHub | undefined;
let hub: RunningHub;
let sim: ProviderSim;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

beforeAll(async () => {
  setup = await startHubOnSim();
  ({ hub, sim } = setup);
  ({ tokens } = await seedAccounts(hub.store));
  const base = (await hub.store.models.get("meta-llama/Llama-3.1-8B-Instruct"))!;
  await hub.store.models.upsert({ ...base, id: PRIVATE, private: true, gated: false });
  await hub.store.mappings.set(PRIVATE, "together", {
    status: "live",
    providerId: PROVIDER_ID,
    task: "conversational",
  });
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => sim.clearRequests());

const requests = async () => (await hub.store.usage.summary()).reduce((n, row) => n + row.requests, 0);

async function chat(token: string, model: string) {
  const response = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hello" }], max_tokens: 8 }),
  });
  return { status: response.status, body: await response.text() };
}

describe("/router/{provider} and private models", () => {
  it.each([
    ["the provider's id", PROVIDER_ID],
    ["the hub id", PRIVATE],
  ])("refuses an outsider naming the private model by %s as a missing model", async (_how, model) => {
    const before = await requests();
    const refused = await chat(tokens.ottoWrite, model);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ error: `Model ${model} does not exist on this hub.` });
    expect(sim.requests).toHaveLength(0);
    expect(await requests()).toBe(before);
  });

  it("lets a member of the owning organization call it", async () => {
    const before = await requests();
    const answered = await chat(tokens.raeRead, PROVIDER_ID);
    expect(answered.status).toBe(200);
    expect(sim.requests.length).toBeGreaterThan(0);
    await expect.poll(async () => (await requests()) - before).toBe(1);
  });
});
