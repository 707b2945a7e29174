/**
 * Attacks on organizations' own inference providers (router/org-own-providers-*.ts,
 * docs/decisions/org-own-providers.md), against a real hub on loopback with raw HTTP, as the site runs by
 * default (ORG_PROVIDERS_ALLOW_PRIVATE off). Rules under test: only an organization's admins change its
 * providers and only its members read or use them, to everyone else they do not exist; an organization's
 * admin cannot make the hub call what only the hub can reach, nor have it send the site's secrets.
 */
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { MAX_PROVIDERS_PER_ORG } from "../router/org-own-providers-service.js";
import { OWN_PROVIDERS_TTL_MS } from "../router/own-providers-registry.js";

const hub = useTestHub();
const ORG = "/api/organizations/acme/providers";
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const KEY = `sk-attack-${"k".repeat(20)}`;
const PUBLIC_URL = "http://203.0.113.7:8000/v1"; // TEST-NET-3: public, never reached by these tests
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
/** ada's read token: she is acme's admin, but a read token may not change anything. */
let adaRead: string;
let sim: ProviderSim;

beforeAll(async () => {
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  adaRead = (await seeded.service.createToken("ada", { name: "ada-read", role: "read" })).token;
  await seeded.service.createOrg({ name: "rival", owner: "otto" });
  sim = await startProviderSim({ providerKeys: { together: [KEY] } });
});
afterAll(async () => {
  await sim?.close().catch(() => {});
});

async function api(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** An answer's body without its request id (each answer has its own). */
const withoutRequestId = (text: string) => text.replace(/"requestId":"[^"]*"/, "");

const tables = async () =>
  JSON.stringify([
    await hub.store.db.all("SELECT * FROM org_own_providers ORDER BY org_id, name"),
    await hub.store.db.all("SELECT * FROM org_own_provider_models ORDER BY org_id, provider, model_id"),
  ]);

describe("who may change and read an organization's providers", () => {
  it("lets acme's admin add one (a public address) with its key sealed", async () => {
    const added = await api("PUT", `${ORG}/gpu`, tokens.adaWrite, { baseUrl: PUBLIC_URL, apiKey: KEY });
    expect(added.status, added.text).toBe(201);
    expect(added.text).not.toContain(KEY);
    expect(
      (await api("PUT", `${ORG}/gpu/models`, tokens.adaWrite, { model: CHAT, servedName: "q" })).status,
    ).toBe(200);
  });

  it("refuses every write by members, outsiders, another organization's admin and narrow tokens", async () => {
    const before = await tables();
    const writes = [
      ["PUT", `${ORG}/gpu`, { baseUrl: "http://203.0.113.8/v1" }],
      ["PUT", `${ORG}/evil`, { baseUrl: "http://203.0.113.8/v1", apiKey: "x" }],
      ["PUT", `${ORG}/gpu/models`, { model: CHAT, servedName: "x" }],
      ["DELETE", `${ORG}/gpu/models?model=${CHAT}`, undefined],
      ["DELETE", `${ORG}/gpu`, undefined],
      ["POST", `${ORG}/check`, undefined],
    ] as const;
    const callers = {
      reader: tokens.raeRead,
      writerMember: tokens.wesWrite,
      outsiderAdminOfRival: tokens.ottoWrite,
      adminWithReadToken: adaRead,
      scopedElsewhere: tokens.wesScopedToSelf,
      inferenceOnly: tokens.wesInferenceOnly,
    };
    for (const [who, token] of Object.entries(callers)) {
      for (const [method, path, body] of writes) {
        const answer = await api(method, path, token, body);
        expect([who, method, path, answer.status]).toEqual([who, method, path, 403]);
        expect(answer.text).not.toContain(KEY);
      }
    }
    for (const [method, path, body] of writes) {
      expect((await api(method, path, undefined, body)).status).toBe(401);
    }
    expect(await tables()).toBe(before);
  });

  it("answers a non-member's read the same whether the name exists or not, and names nothing", async () => {
    for (const token of [tokens.ottoWrite, tokens.wesScopedToSelf]) {
      const list = await api("GET", ORG, token);
      const existing = await api("GET", `${ORG}/gpu`, token);
      const missing = await api("GET", `${ORG}/nope`, token);
      expect([list.status, existing.status, missing.status]).toEqual([403, 403, 403]);
      expect(withoutRequestId(existing.text)).toBe(withoutRequestId(missing.text));
      expect(list.text + existing.text).not.toMatch(/gpu|203\.0\.113/);
    }
    // A member reads it, the key masked.
    const member = await api("GET", `${ORG}/gpu`, tokens.raeRead);
    expect(member.status).toBe(200);
    expect(member.text).not.toContain(KEY);
    expect(JSON.parse(member.text)).toMatchObject({ id: "acme/gpu", apiKey: `****${KEY.slice(-4)}` });
  });

  it("does not let an organization's admin map a model hidden from them (answered as a missing one)", async () => {
    // acme's private model, mapped by rival's admin onto rival's provider.
    await hub.store.models.upsert({
      ...(await hub.store.models.get(CHAT))!,
      id: "acme/secret-model",
      private: true,
    });
    await api("PUT", "/api/organizations/rival/providers/gpu", tokens.ottoWrite, { baseUrl: PUBLIC_URL });
    const hidden = await api("PUT", "/api/organizations/rival/providers/gpu/models", tokens.ottoWrite, {
      model: "acme/secret-model",
      servedName: "x",
    });
    const missing = await api("PUT", "/api/organizations/rival/providers/gpu/models", tokens.ottoWrite, {
      model: "acme/no-such-model",
      servedName: "x",
    });
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(withoutRequestId(hidden.text).replaceAll("secret-model", "M")).toBe(
      withoutRequestId(missing.text).replaceAll("no-such-model", "M"),
    );
  });
});

describe("what an organization's admin may point the hub at", () => {
  it("refuses loopback, private, link-local and metadata addresses, and the hub itself", async () => {
    const before = await tables();
    for (const baseUrl of [
      "http://127.0.0.1:8000/v1",
      "http://localhost:8000/v1",
      "http://10.0.0.5/v1",
      "http://192.168.1.20:8080/v1",
      "http://169.254.169.254/latest",
      "http://[::1]:8000/v1",
      "http://[::ffff:127.0.0.1]/v1",
      "http://0.0.0.0:8000/v1",
      // The metadata service and loopback through NAT64 and 6to4, where the hub's network translates them.
      "http://[64:ff9b::a9fe:a9fe]/latest",
      "http://[2002:7f00:1::]:8000/v1",
      "http://[::127.0.0.1]:8000/v1",
      `${hub.url}/v1`,
    ]) {
      const answer = await api("PUT", `${ORG}/inward`, tokens.adaWrite, { baseUrl });
      expect([baseUrl, answer.status]).toEqual([baseUrl, 400]);
    }
    expect(await tables()).toBe(before);
  });

  it("refuses a key taken from the hub's environment, and credentials in the URL", async () => {
    const before = await tables();
    for (const body of [
      { baseUrl: PUBLIC_URL, apiKeyEnv: "OWN_PROVIDER_KEY_SITE" },
      { baseUrl: PUBLIC_URL, apiKeyEnv: "ADMIN_TOKEN" },
      { baseUrl: "http://user:pass@203.0.113.7/v1" },
      { baseUrl: "file:///etc/passwd" },
      // A health path that is another host's URL: its checks, with the key, would go there.
      { baseUrl: PUBLIC_URL, healthPath: "//localhost/latest/meta-data" },
      { baseUrl: PUBLIC_URL, healthPath: "//203.0.113.9/health" },
    ]) {
      expect((await api("PUT", `${ORG}/env`, tokens.adaWrite, body)).status).toBe(400);
    }
    expect(await tables()).toBe(before);
  });

  it("never sends the stored key to another server than it was given for", async () => {
    // Any of acme's admins may edit its provider, none is shown its key: moved elsewhere without one given,
    // the kept key would go to the new server with the first health check.
    const before = await tables();
    const moved = await api("PUT", `${ORG}/gpu`, tokens.adaWrite, { baseUrl: "http://203.0.113.8/v1" });
    expect([moved.status, moved.text]).toEqual([400, expect.stringMatching(/give the key for/)]);
    expect(moved.text).not.toContain(KEY);
    expect(await tables()).toBe(before);
    // On the same server (another path, other settings) the key is kept; moved with its key given, it moves.
    const samePlace = await api("PUT", `${ORG}/gpu`, tokens.adaWrite, { baseUrl: `${PUBLIC_URL}/` });
    expect(samePlace.status).toBe(200);
    const withKey = { baseUrl: "http://203.0.113.8/v1", apiKey: `${KEY}-new` };
    expect((await api("PUT", `${ORG}/gpu`, tokens.adaWrite, withKey)).status).toBe(200);
    expect(
      (await api("PUT", `${ORG}/gpu`, tokens.adaWrite, { baseUrl: PUBLIC_URL, apiKey: KEY })).status,
    ).toBe(200);
  });

  it("never connects to loopback, even for a row that got there past the check (DNS rebinding, an edit)", async () => {
    const acme = (await hub.store.accounts.orgs.byName("acme"))!;
    const at = new Date().toISOString();
    await hub.store.db.run(
      `INSERT INTO org_own_providers (org_id, name, base_url, api_key_sealed, api_key_hint, health_path,
         headers_timeout_ms, idle_timeout_ms, hosted_failover, created_by, created_at, updated_at)
       VALUES (?, 'inward', ?, NULL, NULL, '/__sim/health', 5000, 5000, 0, 'ada', ?, ?)`,
      [acme.id, `${sim.url}/together/v1`, at, at],
    );
    await hub.store.db.run(
      "INSERT INTO org_own_provider_models (org_id, provider, model_id, kind, served_name) VALUES (?, 'inward', ?, 'chat', 'q')",
      [acme.id, CHAT],
    );
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
    sim.clearRequests();
    const call = await fetch(`${hub.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.raeRead}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: `${CHAT}:acme/inward`, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(call.status).toBeGreaterThanOrEqual(500);
    await api("POST", `${ORG}/check`, tokens.adaWrite);
    expect(sim.requests).toEqual([]);
  });
});

describe("how many servers an organization's admin may have the hub call", () => {
  it(`refuses a provider past ${MAX_PROVIDERS_PER_ORG}, and still lets one be replaced`, async () => {
    // Every one is health-checked every period: a thousand at one address would be a thousand calls to it.
    const count = async () =>
      Number(
        (await hub.store.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM org_own_providers o JOIN accounts a ON a.id = o.org_id WHERE a.name = 'acme'",
        ))!.n,
      );
    const added: string[] = [];
    for (let index = 0; (await count()) < MAX_PROVIDERS_PER_ORG; index++) {
      const answer = await api("PUT", `${ORG}/many-${index}`, tokens.adaWrite, { baseUrl: PUBLIC_URL });
      expect(answer.status).toBe(201);
      added.push(`many-${index}`);
    }
    const refused = await api("PUT", `${ORG}/one-more`, tokens.adaWrite, { baseUrl: PUBLIC_URL });
    expect([refused.status, refused.text]).toEqual([409, expect.stringMatching(/remove one first/)]);
    expect(await count()).toBe(MAX_PROVIDERS_PER_ORG);
    const replaced = await api("PUT", `${ORG}/${added[0]}`, tokens.adaWrite, {
      baseUrl: "http://203.0.113.9/v1",
    });
    expect(replaced.status).toBe(200);
    for (const name of added)
      expect((await api("DELETE", `${ORG}/${name}`, tokens.adaWrite)).status).toBe(200);
  });
});
