import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import type { RunningHub } from "../start-hub.js";
import type { OrgOwnProviderView } from "./org-own-providers-service.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * Prices of an organization's own provider (migration 50), as its admin sets them through the API and the
 * site's operator through the admin CLI: `/v1/models` tells them to the organization's members in the shape
 * it tells a site provider's (`pricing`, `context_length`), `:cheapest` orders by them, and nobody else
 * learns them.
 */
const CHAT = "Qwen/Qwen2.5-7B-Instruct"; // also served by hosted providers
const KEY = `sk-acme-${"pr".repeat(12)}`;
const PROVIDERS = "/api/organizations/acme/providers";
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let sim: ProviderSim;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
/** otto: admin of rival, not a member of acme. */
let ottoToken: string;

async function api(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

interface ProviderEntry {
  provider: string;
  pricing?: { input?: number; output?: number };
  context_length?: number;
}

/** CHAT's providers in `/v1/models` as a caller sees them. */
async function providersOfChat(token: string | undefined): Promise<ProviderEntry[]> {
  const listed = await api("GET", "/v1/models", token);
  expect(listed.status).toBe(200);
  const model = (listed.json as { data: { id: string; providers: ProviderEntry[] }[] }).data.find(
    (entry) => entry.id === CHAT,
  );
  return model?.providers ?? [];
}

const run = (args: string[]) =>
  runAdminCommand(args, hub.store, INFERENCE_PROVIDERS, { readStdin: async () => "" });

beforeAll(async () => {
  temp = makeTempDir();
  sim = await startProviderSim({ providerKeys: { together: [KEY] } });
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    orgProvidersAllowPrivate: true,
    ownProvidersHealthIntervalMs: 3_600_000,
  });
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  await seeded.service.createOrg({ name: "rival", owner: "otto" });
  ottoToken = (await seeded.service.createToken("otto", { name: "otto", role: "write" })).token;
  const added = await api("PUT", `${PROVIDERS}/gpu`, tokens.adaWrite, {
    baseUrl: `${sim.url}/together/v1`,
    apiKey: KEY,
    healthPath: "/__sim/health",
  });
  expect(added.status, added.text).toBe(201);
  const mapped = await api("PUT", `${PROVIDERS}/gpu/models`, tokens.adaWrite, {
    model: CHAT,
    servedName: "qwen-acme",
  });
  expect(mapped.status, mapped.text).toBe(200);
  // A hosted provider's offer, as the site's operator configures it: the shape to match.
  await run([
    "providers:price",
    "together",
    "--model",
    CHAT,
    "--input-price",
    "0.3",
    "--output-price",
    "0.9",
  ]);
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await sim?.close().catch(() => {});
  temp?.remove();
});

describe("an organization's admin prices its provider's models", () => {
  it("refuses a price for a model the provider does not serve, and figures out of range", async () => {
    const unserved = await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, {
      model: "bartowski/Llama-3.2-3B-Instruct-GGUF",
      inputPrice: 1,
    });
    expect(unserved.status).toBe(404);
    expect(unserved.json.error).toMatch(/map the model to it first/);
    for (const body of [
      { model: CHAT, inputPrice: -1 },
      { model: CHAT, outputPrice: 2e6 },
      { model: CHAT, contextLength: 0 },
      { model: CHAT, contextLength: 1.5 },
      { model: CHAT, inputPrice: "1" },
    ]) {
      expect((await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, body)).status).toBe(400);
    }
  });

  it("sets a price the provider's view shows", async () => {
    const priced = await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, {
      model: CHAT,
      inputPrice: 0.05,
      outputPrice: 0.1,
      contextLength: 32768,
    });
    expect(priced.status, priced.text).toBe(200);
    expect((priced.json as OrgOwnProviderView).prices).toEqual([
      {
        model: CHAT,
        inputPrice: 0.05,
        outputPrice: 0.1,
        contextLength: 32768,
        updatedBy: "ada",
        updatedAt: expect.any(String),
      },
    ]);
    // Members read it too.
    const read = await api("GET", `${PROVIDERS}/gpu`, tokens.raeRead);
    expect((read.json as OrgOwnProviderView).prices.map((price) => price.inputPrice)).toEqual([0.05]);
  });

  it("tells acme's members the price in /v1/models, in the shape of a site provider's", async () => {
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    const providers = await providersOfChat(tokens.raeRead);
    const own = providers.find((entry) => entry.provider === "acme/gpu");
    const hosted = providers.find((entry) => entry.provider === "together");
    expect(own).toMatchObject({ pricing: { input: 0.05, output: 0.1 }, context_length: 32768 });
    expect(hosted).toMatchObject({ pricing: { input: 0.3, output: 0.9 } });
    expect(Object.keys(own!.pricing!)).toEqual(Object.keys(hosted!.pricing!));
  });

  it("orders :cheapest by it", async () => {
    const cheapest = async () => {
      const answer = await fetch(`${hub.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${tokens.raeRead}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: `${CHAT}:cheapest`, messages: [{ role: "user", content: "hi" }] }),
      });
      await answer.text();
      return answer.headers.get("x-inference-provider");
    };
    expect(await cheapest()).toBe("acme/gpu");
    // Dearer than the hosted offer: the hosted provider comes first.
    expect(
      (
        await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, {
          model: CHAT,
          inputPrice: 5,
          outputPrice: 5,
        })
      ).status,
    ).toBe(200);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    expect(await cheapest()).toBe("together");
  });

  it("tells nobody else: not another organization's admin, not an anonymous caller", async () => {
    for (const token of [ottoToken, undefined]) {
      const providers = await providersOfChat(token);
      expect(providers.map((entry) => entry.provider)).not.toContain("acme/gpu");
      expect(JSON.stringify(providers)).not.toMatch(/"input":5\b/);
    }
  });

  it("is set and removed by the site's operator through the admin CLI", async () => {
    const priced = (await run([
      "org-providers:price",
      "acme",
      "gpu",
      "--model",
      CHAT,
      "--output-price",
      "0.2",
      "--context-length",
      "8192",
    ])) as { json: OrgOwnProviderView };
    expect(priced.json.prices).toMatchObject([
      { model: CHAT, inputPrice: null, outputPrice: 0.2, contextLength: 8192, updatedBy: "admin-cli" },
    ]);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    const own = (await providersOfChat(tokens.raeRead)).find((entry) => entry.provider === "acme/gpu");
    expect(own).toMatchObject({ pricing: { output: 0.2 }, context_length: 8192 });
    expect(own!.pricing).not.toHaveProperty("input");
    const removed = (await run(["org-providers:unprice", "acme", "gpu", "--model", CHAT])) as {
      json: OrgOwnProviderView;
    };
    expect(removed.json.prices).toEqual([]);
    await expect(run(["org-providers:unprice", "acme", "gpu", "--model", CHAT])).rejects.toThrow(
      /No price of gpu/,
    );
  });

  it("goes with the model's mapping and with the provider", async () => {
    const price = { model: CHAT, inputPrice: 1 };
    expect((await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, price)).status).toBe(200);
    const unmapped = await api("DELETE", `${PROVIDERS}/gpu/models?model=${CHAT}`, tokens.adaWrite);
    expect((unmapped.json as OrgOwnProviderView).prices).toEqual([]);
    await api("PUT", `${PROVIDERS}/gpu/models`, tokens.adaWrite, { model: CHAT, servedName: "qwen-acme" });
    expect((await api("PUT", `${PROVIDERS}/gpu/prices`, tokens.adaWrite, price)).status).toBe(200);
    expect((await api("DELETE", `${PROVIDERS}/gpu`, tokens.adaWrite)).status).toBe(200);
    expect(await hub.store.db.all("SELECT * FROM org_own_provider_prices")).toEqual([]);
  });
});
