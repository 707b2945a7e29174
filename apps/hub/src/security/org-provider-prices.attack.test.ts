/**
 * Attacks on the prices of organizations' own providers (`PUT|DELETE
 * /api/organizations/{org}/providers/{name}/prices`, migration 50), against a real hub on loopback with raw
 * HTTP. Rules under test: only the organization's admins set them; members, outsiders, another
 * organization's admin and narrow tokens are refused before anything is read or written; a price cannot be
 * set for a model the admin may not see (answered as a missing one); nobody outside the organization reads
 * them, in the provider API or in `/v1/models`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { OWN_PROVIDERS_TTL_MS } from "../router/own-providers-registry.js";

const hub = useTestHub();
const ORG = "/api/organizations/acme/providers";
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const PUBLIC_URL = "http://203.0.113.7:8000/v1"; // TEST-NET-3: public, never reached by these tests
/** A price no other figure of the hub has, to find in any answer it leaks into. */
const MARK = 12.3456;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
/** ada's read token: she is acme's admin, but a read token may not change anything. */
let adaRead: string;

beforeAll(async () => {
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  adaRead = (await seeded.service.createToken("ada", { name: "ada-read", role: "read" })).token;
  await seeded.service.createOrg({ name: "rival", owner: "otto" });
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

const withoutRequestId = (text: string) => text.replace(/"requestId":"[^"]*"/, "");
const prices = async () =>
  JSON.stringify(await hub.store.db.all("SELECT * FROM org_own_provider_prices ORDER BY org_id, provider"));

describe("who may price an organization's provider", () => {
  it("lets acme's admin price a model its provider serves", async () => {
    expect((await api("PUT", `${ORG}/gpu`, tokens.adaWrite, { baseUrl: PUBLIC_URL })).status).toBe(201);
    expect(
      (await api("PUT", `${ORG}/gpu/models`, tokens.adaWrite, { model: CHAT, servedName: "q" })).status,
    ).toBe(200);
    const priced = await api("PUT", `${ORG}/gpu/prices`, tokens.adaWrite, { model: CHAT, inputPrice: MARK });
    expect(priced.status, priced.text).toBe(200);
  });

  it("refuses members, outsiders, another organization's admin and narrow tokens, changing nothing", async () => {
    const before = await prices();
    const writes = [
      ["PUT", `${ORG}/gpu/prices`, { model: CHAT, inputPrice: 0 }],
      ["PUT", `${ORG}/nope/prices`, { model: CHAT, inputPrice: 0 }],
      ["DELETE", `${ORG}/gpu/prices?model=${CHAT}`, undefined],
      ["DELETE", `${ORG}/nope/prices?model=${CHAT}`, undefined],
    ] as const;
    const callers = {
      reader: tokens.raeRead,
      writerMember: tokens.wesWrite,
      adminOfRival: tokens.ottoWrite,
      adminWithReadToken: adaRead,
      scopedElsewhere: tokens.wesScopedToSelf,
      inferenceOnly: tokens.wesInferenceOnly,
    };
    for (const [who, token] of Object.entries(callers)) {
      const answers: string[] = [];
      for (const [method, path, body] of writes) {
        const answer = await api(method, path, token, body);
        expect([who, method, path, answer.status]).toEqual([who, method, path, 403]);
        answers.push(withoutRequestId(answer.text).replaceAll("nope", "gpu"));
      }
      // Whether the provider exists or not, the same refusal.
      expect(answers[0]).toBe(answers[1]);
      expect(answers[2]).toBe(answers[3]);
      expect(answers.join()).not.toContain(String(MARK));
    }
    for (const [method, path, body] of writes) {
      expect((await api(method, path, undefined, body)).status).toBe(401);
    }
    expect(await prices()).toBe(before);
  });

  it("does not let an organization's admin price a model hidden from them (answered as a missing one)", async () => {
    await hub.store.models.upsert({
      ...(await hub.store.models.get(CHAT))!,
      id: "acme/secret-model",
      private: true,
    });
    const rival = "/api/organizations/rival/providers/gpu";
    expect((await api("PUT", rival, tokens.ottoWrite, { baseUrl: PUBLIC_URL })).status).toBe(201);
    const hidden = await api("PUT", `${rival}/prices`, tokens.ottoWrite, { model: "acme/secret-model" });
    const missing = await api("PUT", `${rival}/prices`, tokens.ottoWrite, { model: "acme/no-such-model" });
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(withoutRequestId(hidden.text).replaceAll("secret-model", "M")).toBe(
      withoutRequestId(missing.text).replaceAll("no-such-model", "M"),
    );
  });

  it("shows the price to nobody outside acme: not its provider API, not /v1/models", async () => {
    await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
    for (const token of [tokens.ottoWrite, tokens.wesScopedToSelf, undefined]) {
      const read = await api("GET", `${ORG}/gpu`, token);
      expect(read.status).toBe(token ? 403 : 401);
      const models = await api("GET", "/v1/models", token);
      expect(models.status).toBe(200);
      expect(read.text + models.text).not.toContain(String(MARK));
      expect(models.text).not.toContain("acme/gpu");
    }
    // acme's member does read it.
    expect((await api("GET", `${ORG}/gpu`, tokens.raeRead)).text).toContain(String(MARK));
  });
});
