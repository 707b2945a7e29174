import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import type { RunningHub } from "../start-hub.js";
import type { OrgOwnProviderView } from "./org-own-providers-service.js";
import { createSecretBox, loadSecretsKey } from "./own-provider-secrets.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";

/**
 * Organizations' own providers as their admins set them up and their members use them: three
 * OpenAI-compatible servers (provider-sim speaking plain OpenAI under `/together/v1`, each taking only its own
 * key): acme's `acme/gpu`, rival's `rival/gpu` and the site's `gpu` (the same short name three times: no
 * clash). Members chat through `/v1` with the npm and Python `openai` clients; everyone else meets the router
 * as if acme's server did not exist; usage is billed to the organization.
 */
const CHAT = "Qwen/Qwen2.5-7B-Instruct"; // also served by hosted providers
const OWN_ONLY = "bartowski/Llama-3.2-3B-Instruct-GGUF"; // no hosted provider serves it
const KEY_ACME = `sk-acme-${"ac".repeat(12)}`;
const KEY_RIVAL = `sk-rival-${"rv".repeat(12)}`;
const KEY_SITE = `sk-site-${"st".repeat(12)}`;
const PYTHON = join(fileURLToPath(new URL("../../../../", import.meta.url)), ".venv/bin/python");
const messages = [{ role: "user" as const, content: "Say hello" }];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let simAcme: ProviderSim;
let simRival: ProviderSim;
let simSite: ProviderSim;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
/** otto: admin of rival, not a member of acme. bea: a member of both. */
let ottoToken: string;
let beaToken: string;

const clientOf = (token: string, headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0, defaultHeaders: headers });

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

/** A chat call's provider (the `x-inference-provider` header) or the error's status and message. */
async function chat(token: string, model: string, headers: Record<string, string> = {}) {
  try {
    const { response } = await clientOf(token, headers)
      .chat.completions.create({ model, messages })
      .withResponse();
    return { provider: response.headers.get("x-inference-provider") };
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    return { status, message };
  }
}

beforeAll(async () => {
  temp = makeTempDir();
  const sim = (key: string) => startProviderSim({ providerKeys: { together: [key] } });
  [simAcme, simRival, simSite] = await Promise.all([sim(KEY_ACME), sim(KEY_RIVAL), sim(KEY_SITE)]);
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    // The organizations' servers here are on loopback.
    orgProvidersAllowPrivate: true,
    // Checks run when a test asks (POST .../check): no timing in the assertions.
    ownProvidersHealthIntervalMs: 3_600_000,
  });
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  const { service } = seeded;
  await service.createOrg({ name: "rival", owner: "otto" });
  await service.createUser({ name: "bea" });
  await service.setMember("acme", "bea", "read");
  await service.setMember("rival", "bea", "read");
  ottoToken = (await service.createToken("otto", { name: "otto", role: "write" })).token;
  beaToken = (await service.createToken("bea", { name: "bea", role: "read" })).token;
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await Promise.all([simAcme, simRival, simSite].map((sim) => sim?.close().catch(() => {})));
  temp?.remove();
});

describe("an organization's admin adds a server for the organization", () => {
  it("adds acme/gpu with its key sealed, and maps models to it", async () => {
    const added = await api("PUT", "/api/organizations/acme/providers/gpu", tokens.adaWrite, {
      baseUrl: `${simAcme.url}/together/v1`,
      apiKey: KEY_ACME,
      healthPath: "/__sim/health",
    });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ id: "acme/gpu", name: "gpu", apiKey: `****${KEY_ACME.slice(-4)}` });
    expect(added.text).not.toContain(KEY_ACME);
    for (const [model, servedName] of [
      [CHAT, "qwen-acme"],
      [OWN_ONLY, "llama-acme"],
    ]) {
      const mapped = await api("PUT", "/api/organizations/acme/providers/gpu/models", tokens.adaWrite, {
        model,
        servedName,
      });
      expect(mapped.status).toBe(200);
    }
    // Sealed at rest, bound to the organization and the name: never the key itself.
    const rows = await hub.store.db.all<Record<string, unknown>>("SELECT * FROM org_own_providers");
    expect(JSON.stringify(rows)).not.toContain(KEY_ACME);
    expect(rows[0]?.api_key_sealed).toMatch(/^v1\./);
  });

  it("lets rival's admin and the site's add servers of the same short name: no clash", async () => {
    expect(
      (
        await api("PUT", "/api/organizations/rival/providers/gpu", ottoToken, {
          baseUrl: `${simRival.url}/together/v1`,
          apiKey: KEY_RIVAL,
          healthPath: "/__sim/health",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api("PUT", "/api/organizations/rival/providers/gpu/models", ottoToken, {
          model: CHAT,
          servedName: "qwen-rival",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api("PUT", "/api/admin/own-providers/gpu", ADMIN_TOKEN, {
          baseUrl: `${simSite.url}/together/v1`,
          apiKey: KEY_SITE,
          healthPath: "/__sim/health",
        })
      ).status,
    ).toBe(201);
    // The site's server serves a third model, so that it does not take acme's and rival's calls first.
    expect(
      (
        await api("PUT", "/api/admin/own-providers/gpu/models", ADMIN_TOKEN, {
          model: "BAAI/bge-m3",
          kind: "embeddings",
          servedName: "bge-site",
        })
      ).status,
    ).toBe(200);
    const checked = await api("POST", "/api/organizations/acme/providers/check", tokens.adaWrite);
    expect(checked.status).toBe(200);
    expect((checked.json as OrgOwnProviderView[]).map((p) => [p.id, p.health.status])).toEqual([
      ["acme/gpu", "up"],
    ]);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
  });

  it("shows acme's members the list, the key masked; its admin alone may change it", async () => {
    const listed = await api("GET", "/api/organizations/acme/providers", tokens.raeRead);
    expect(listed.status).toBe(200);
    expect((listed.json as OrgOwnProviderView[]).map((p) => [p.id, p.models.length])).toEqual([
      ["acme/gpu", 2],
    ]);
    expect(listed.text).not.toContain(KEY_ACME);
    expect((await api("DELETE", "/api/organizations/acme/providers/gpu", tokens.wesWrite)).status).toBe(403);
  });
});

describe("acme's members call it through /v1 (npm openai client)", () => {
  it("routes owner/name and owner/name:acme/gpu to acme's server with its model name and key", async () => {
    simAcme.clearRequests();
    expect(await chat(tokens.raeRead, OWN_ONLY)).toEqual({ provider: "acme/gpu" });
    expect(simAcme.requests.at(-1)?.json).toMatchObject({ model: "llama-acme" });
    expect(await chat(tokens.wesWrite, `${CHAT}:acme/gpu`)).toEqual({ provider: "acme/gpu" });
    expect(simAcme.requests.at(-1)?.json).toMatchObject({ model: "qwen-acme" });
    // The organization's server first (own hardware), then hosted ones.
    expect(await chat(tokens.raeRead, CHAT)).toEqual({ provider: "acme/gpu" });
    // The site's `gpu` is another provider altogether.
    expect(await chat(tokens.raeRead, `${CHAT}:gpu`)).toMatchObject({ status: 400 });
  });

  it("streams", async () => {
    let text = "";
    for await (const chunk of await clientOf(tokens.raeRead).chat.completions.create({
      model: `${OWN_ONLY}:acme/gpu`,
      messages,
      stream: true,
    })) {
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text.length).toBeGreaterThan(0);
  });

  it("lists acme's server in /v1/models to members", async () => {
    const models = await clientOf(tokens.raeRead).models.list();
    const own = models.data.find((model) => model.id === OWN_ONLY) as unknown as {
      providers: { provider: string; providerId: string }[];
    };
    expect(own.providers.map((entry) => [entry.provider, entry.providerId])).toEqual([
      ["acme/gpu", "llama-acme"],
    ]);
  });

  it("bills a member's call to the organization whose server answered", async () => {
    await hub.store.usage.flush();
    const acme = (await hub.store.accounts.orgs.byName("acme"))!;
    const rae = (await hub.store.accounts.users.byName("rae"))!;
    const rows = await hub.store.db.all<{ user_id: number | string; bill_to_id: number | string | null }>(
      "SELECT user_id, bill_to_id FROM usage WHERE provider = ?",
      ["acme/gpu"],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((row) => Number(row.bill_to_id)))).toEqual(new Set([acme.id]));
    expect(rows.map((row) => Number(row.user_id))).toContain(rae.id);
    // The organization's usage report shows it.
    const report = await api("GET", "/api/organizations/acme/usage", tokens.adaWrite);
    expect(report.status).toBe(200);
    expect(report.text).toContain("acme/gpu");
  });
});

describe("to everyone else, acme's server does not exist", () => {
  it("answers :acme/gpu to a non-member exactly as a name that was never added", async () => {
    const named = await chat(ottoToken, `${OWN_ONLY}:acme/gpu`);
    const madeUp = await chat(ottoToken, `${OWN_ONLY}:acme/nope`);
    expect(named.status).toBe(400);
    expect(named.message?.replace("acme/gpu", "NAME")).toBe(madeUp.message?.replace("acme/nope", "NAME"));
    // Unnamed: no provider, as for a model nobody serves; nothing names acme's server.
    const unnamed = await chat(ottoToken, OWN_ONLY);
    expect(unnamed.status).toBe(404);
    expect(unnamed.message).not.toContain("acme");
  });

  it("routes a member of another organization to that organization's own server", async () => {
    simAcme.clearRequests();
    expect(await chat(ottoToken, CHAT)).toEqual({ provider: "rival/gpu" });
    expect(simRival.requests.at(-1)?.json).toMatchObject({ model: "qwen-rival" });
    expect(simAcme.requests).toEqual([]);
  });

  it("leaves acme's server out of /v1/models for non-members and anonymous callers", async () => {
    for (const headers of [{ Authorization: `Bearer ${ottoToken}` }, {}] as Record<string, string>[]) {
      const response = await fetch(`${hub.url}/v1/models`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("vary")).toMatch(/Authorization/);
      const text = await response.text();
      expect(text).not.toContain("acme/gpu");
      expect((JSON.parse(text) as { data: { id: string }[] }).data.map((m) => m.id)).not.toContain(OWN_ONLY);
    }
    const one = await fetch(`${hub.url}/v1/models/${OWN_ONLY}`, {
      headers: { Authorization: `Bearer ${ottoToken}` },
    });
    expect(one.status).toBe(404);
  });

  it("refuses a non-member the organization's list, whether a name exists or not", async () => {
    const existing = await api("GET", "/api/organizations/acme/providers/gpu", ottoToken);
    const missing = await api("GET", "/api/organizations/acme/providers/nope", ottoToken);
    expect(existing.status).toBe(403);
    const withoutRequestId = (text: string) => text.replace(/"requestId":"[^"]*"/, "");
    expect(withoutRequestId(existing.text)).toBe(withoutRequestId(missing.text));
  });
});

describe("a member of two organizations", () => {
  it("uses both organizations' servers, and only the billed one's when it names one", async () => {
    expect(await chat(beaToken, OWN_ONLY)).toEqual({ provider: "acme/gpu" });
    expect(await chat(beaToken, `${CHAT}:rival/gpu`)).toEqual({ provider: "rival/gpu" });
    // Billed to rival: acme's server is not rival's to run.
    const billedToRival = await chat(beaToken, `${OWN_ONLY}:acme/gpu`, { "X-HF-Bill-To": "rival" });
    expect(billedToRival.status).toBe(400);
    expect(await chat(beaToken, CHAT, { "X-HF-Bill-To": "rival" })).toEqual({ provider: "rival/gpu" });
    await hub.store.usage.flush();
    const rival = (await hub.store.accounts.orgs.byName("rival"))!;
    const rows = await hub.store.db.all<{ bill_to_id: number | string | null }>(
      "SELECT bill_to_id FROM usage WHERE provider = ?",
      ["rival/gpu"],
    );
    expect(new Set(rows.map((row) => Number(row.bill_to_id)))).toEqual(new Set([rival.id]));
  });
});

describe.skipIf(!existsSync(PYTHON))("the Python openai client", () => {
  it("chats with owner/name and owner/name:acme/gpu as a member", async () => {
    const script = `
import os, json
from openai import OpenAI
client = OpenAI(base_url=os.environ["HUB"] + "/v1", api_key=os.environ["TOKEN"], max_retries=0)
out = {}
for model in ["${OWN_ONLY}", "${CHAT}:acme/gpu"]:
    raw = client.chat.completions.with_raw_response.create(model=model, messages=[{"role": "user", "content": "Hi"}])
    out[model] = [raw.parse().choices[0].message.content, raw.headers.get("x-inference-provider")]
print(json.dumps(out))
`;
    const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], {
      env: { ...process.env, HUB: hub.url, TOKEN: tokens.raeRead },
    });
    const out = JSON.parse(stdout) as Record<string, [string, string]>;
    expect(Object.values(out).map(([content, provider]) => [content.length > 0, provider])).toEqual([
      [true, "acme/gpu"],
      [true, "acme/gpu"],
    ]);
  }, 120_000);
});

describe("health and keys", () => {
  it("skips acme's server while it fails its health check, and says so to members", async () => {
    expect(
      (
        await api("PUT", "/api/organizations/acme/providers/gpu", tokens.adaWrite, {
          baseUrl: `${simAcme.url}/together/v1`,
          healthPath: "/nothing-here",
        })
      ).status,
    ).toBe(200);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    const checked = await api("POST", "/api/organizations/acme/providers/check", tokens.adaWrite);
    expect((checked.json as OrgOwnProviderView[])[0]?.health).toMatchObject({ status: "down" });
    // Named, it answers 503 naming it (to a member); unnamed, the call goes on to hosted providers.
    expect(await chat(tokens.raeRead, `${CHAT}:acme/gpu`)).toMatchObject({ status: 503 });
    expect((await chat(tokens.raeRead, CHAT)).provider).not.toMatch(/gpu/);
    // The key was kept (none given): back up, it answers again with it.
    await api("PUT", "/api/organizations/acme/providers/gpu", tokens.adaWrite, {
      baseUrl: `${simAcme.url}/together/v1`,
      healthPath: "/__sim/health",
    });
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    await api("POST", "/api/organizations/acme/providers/check", tokens.adaWrite);
    expect(await chat(tokens.raeRead, `${CHAT}:acme/gpu`)).toEqual({ provider: "acme/gpu" });
  });

  it("does not open a sealed key copied onto another organization's row", async () => {
    const acme = (await hub.store.accounts.orgs.byName("acme"))!;
    const rival = (await hub.store.accounts.orgs.byName("rival"))!;
    const [row] = await hub.store.db.all<{ api_key_sealed: string }>(
      "SELECT api_key_sealed FROM org_own_providers WHERE org_id = ? AND name = ?",
      [acme.id, "gpu"],
    );
    // rival's admin (or a database edit) points rival's server at acme's and copies acme's sealed key.
    await hub.store.db.run(
      "UPDATE org_own_providers SET base_url = ?, api_key_sealed = ?, updated_at = ? WHERE org_id = ? AND name = ?",
      [`${simAcme.url}/together/v1`, row!.api_key_sealed, new Date().toISOString(), rival.id, "gpu"],
    );
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    simAcme.clearRequests();
    expect((await chat(ottoToken, CHAT)).provider).not.toBe("rival/gpu");
    expect(simAcme.requests).toEqual([]);
    // rival's admin is told why, where they look (the list their page shows), and what to do.
    const listed = await api("GET", "/api/organizations/rival/providers", ottoToken);
    const gpu = (listed.json as { name: string; health: { status: string; error: string } }[]).find(
      (provider) => provider.name === "gpu",
    );
    expect(gpu?.health).toMatchObject({ status: "down", error: expect.stringMatching(/set the key again/) });
  });

  it("lists and removes an organization's provider through the admin CLI", async () => {
    const run = (args: string[]) =>
      runAdminCommand(args, hub.store, INFERENCE_PROVIDERS, {
        readStdin: async () => "",
        ownProviderSecrets: () => createSecretBox(loadSecretsKey(undefined, join(temp.dir, "data"))),
      });
    const listed = await run(["org-providers:list", "acme"]);
    expect(JSON.stringify(listed)).not.toContain(KEY_ACME);
    expect((listed as { json: OrgOwnProviderView[] }).json.map((provider) => provider.id)).toEqual([
      "acme/gpu",
    ]);
    expect(await run(["org-providers:remove", "acme", "gpu"])).toEqual({
      json: { org: "acme", name: "gpu", deleted: true },
    });
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    expect(await chat(tokens.raeRead, `${OWN_ONLY}:acme/gpu`)).toMatchObject({ status: 400 });
    expect(
      await hub.store.db.all("SELECT * FROM org_own_provider_models WHERE provider = 'gpu' AND org_id = ?", [
        (await hub.store.accounts.orgs.byName("acme"))!.id,
      ]),
    ).toEqual([]);
  });
});
