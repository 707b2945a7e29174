import { join } from "node:path";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { getRouterProviderSnippets } from "@modelhub/snippets";
import { makeWorkDir, runSnippetBatch } from "@modelhub/snippets/testing";
import type { ModelData } from "@modelhub/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";
import type { ModelOwnProvider } from "./model-own-providers.js";

/**
 * An organization's own provider where the model page shows providers: `GET
 * /api/models/{id}/own-providers` lists it to the organization's members (with its health and offer), and
 * the snippets the page generates for it run as pasted: the Python `openai` client chats with the hub's `/v1`
 * as `owner/name:acme/gpu`, answered by acme's server (provider-sim speaking plain OpenAI), billed to acme.
 */
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const KEY = `sk-acme-${"mp".repeat(12)}`;

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let sim: ProviderSim;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

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
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

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
  const providers = "/api/organizations/acme/providers";
  expect(
    (
      await api("PUT", `${providers}/gpu`, tokens.adaWrite, {
        baseUrl: `${sim.url}/together/v1`,
        apiKey: KEY,
        healthPath: "/__sim/health",
      })
    ).status,
  ).toBe(201);
  expect(
    (await api("PUT", `${providers}/gpu/models`, tokens.adaWrite, { model: CHAT, servedName: "qwen-acme" }))
      .status,
  ).toBe(200);
  expect(
    (
      await api("PUT", `${providers}/gpu/prices`, tokens.adaWrite, {
        model: CHAT,
        inputPrice: 0.1,
        contextLength: 16384,
      })
    ).status,
  ).toBe(200);
  expect((await api("POST", `${providers}/check`, tokens.adaWrite)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await sim?.close().catch(() => {});
  temp?.remove();
});

describe("the model page's own providers", () => {
  it("lists acme's provider to its member, with its health and offer, never stored by a cache", async () => {
    const listed = await api("GET", `/api/models/${CHAT}/own-providers`, tokens.raeRead);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("private, no-store");
    expect(listed.headers.get("vary")).toMatch(/Authorization/);
    expect(listed.headers.get("vary")).toMatch(/Cookie/);
    expect(listed.json as ModelOwnProvider[]).toEqual([
      {
        provider: "acme/gpu",
        org: "acme",
        task: "conversational",
        providerId: "qwen-acme",
        health: "up",
        pricing: { input: 0.1 },
        contextLength: 16384,
      },
    ]);
  });

  it("lists nothing of it to anyone else", async () => {
    for (const token of [tokens.ottoWrite, tokens.wesScopedToSelf, undefined]) {
      const listed = await api("GET", `/api/models/${CHAT}/own-providers`, token);
      expect(listed.status).toBe(200);
      expect(listed.json).toEqual([]);
    }
  });

  it("gives snippets that run as pasted (Python and npm openai, requests, fetch, curl), billed to acme", async () => {
    const model = (await api("GET", `/api/models/${CHAT}`, tokens.raeRead)).json as ModelData;
    const snippets = getRouterProviderSnippets(model, undefined, "acme/gpu", {
      hubUrl: hub.url,
      routerUrl: `${hub.url}/router`,
    });
    expect(snippets.map((snippet) => `${snippet.language}/${snippet.client}`)).toEqual([
      "python/requests",
      "python/openai",
      "js/openai",
      "js/fetch",
      "sh/curl",
    ]);
    const python = snippets.find((snippet) => snippet.client === "openai" && snippet.language === "python")!;
    expect(python.content).toContain(`model="${CHAT}:acme/gpu"`);
    sim.clearRequests();
    const work = makeWorkDir();
    try {
      const entries = snippets.map((snippet) => ({ id: `${snippet.language}/${snippet.client}`, snippet }));
      const results = await runSnippetBatch(entries, work.dir, { HF_TOKEN: tokens.raeRead });
      for (const { id } of entries) {
        const ran = results.get(id)!;
        expect([id, ran.code], ran.stderr).toEqual([id, 0]);
        expect(ran.stdout.trim().length, id).toBeGreaterThan(0);
      }
    } finally {
      work.remove();
    }
    // acme's server answered each (it takes acme's key alone), under its own name for the model.
    expect(sim.requests.length).toBe(snippets.length);
    for (const request of sim.requests) expect(request.json).toMatchObject({ model: "qwen-acme" });
    await hub.store.usage.flush();
    const acme = (await hub.store.accounts.orgs.byName("acme"))!;
    const rows = await hub.store.db.all<{ bill_to_id: number | string | null }>(
      "SELECT bill_to_id FROM usage WHERE provider = ?",
      ["acme/gpu"],
    );
    expect(rows.map((row) => Number(row.bill_to_id))).toEqual(snippets.map(() => acme.id));
  });

  it("refuses a provider's key in place of a hub token", () => {
    expect(() =>
      getRouterProviderSnippets(
        { id: CHAT, pipeline_tag: "text-generation" } as ModelData,
        "sk-x",
        "acme/gpu",
      ),
    ).toThrow(/hub access token/);
  });
});
