/**
 * Attacks on `GET /api/models/{owner}/{name}/own-providers` (router/model-own-providers*.ts), the model
 * page's list of own providers, against a real hub on loopback with raw HTTP. Rules under test: an
 * organization's provider is listed to those who may bill inference to the organization and to nobody else
 * (another organization's admin, a member's token scoped elsewhere, anonymous callers); a private model's
 * list answers outsiders exactly as a missing model does; the answer is never stored by a shared cache.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const SECRET_MODEL = "acme/secret-chat";
const PUBLIC_URL = "http://203.0.113.7:8000/v1"; // TEST-NET-3: public, never reached by these tests
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
let adaRead: string;

async function api(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const withoutRequestId = (text: string) => text.replace(/"requestId":"[^"]*"/, "");
const listed = async (model: string, token: string | undefined) => {
  const answer = await api("GET", `/api/models/${model}/own-providers`, token);
  expect(answer.status, answer.text).toBe(200);
  return (JSON.parse(answer.text) as Array<{ provider: string }>).map((entry) => entry.provider);
};

beforeAll(async () => {
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  adaRead = (await seeded.service.createToken("ada", { name: "ada-read", role: "read" })).token;
  await seeded.service.createOrg({ name: "rival", owner: "otto" });
  await hub.store.models.upsert({ ...(await hub.store.models.get(CHAT))!, id: SECRET_MODEL, private: true });
  for (const [org, token, models] of [
    ["acme", tokens.adaWrite, [CHAT, SECRET_MODEL]],
    ["rival", tokens.ottoWrite, [CHAT]],
  ] as const) {
    const base = `/api/organizations/${org}/providers/gpu`;
    expect((await api("PUT", base, token, { baseUrl: PUBLIC_URL })).status).toBe(201);
    for (const model of models) {
      expect((await api("PUT", `${base}/models`, token, { model, servedName: "q" })).status).toBe(200);
    }
  }
});

describe("who sees an organization's provider on a model's page", () => {
  it("lists each organization's provider to its own members only", async () => {
    expect(await listed(CHAT, tokens.raeRead)).toEqual(["acme/gpu"]);
    expect(await listed(CHAT, adaRead)).toEqual(["acme/gpu"]);
    expect(await listed(CHAT, tokens.ottoWrite)).toEqual(["rival/gpu"]);
    for (const token of [tokens.wesScopedToSelf, undefined]) expect(await listed(CHAT, token)).toEqual([]);
  });

  it("answers a private model's list to outsiders exactly as a missing model's", async () => {
    for (const token of [tokens.ottoWrite, tokens.wesScopedToSelf]) {
      const hidden = await api("GET", `/api/models/${SECRET_MODEL}/own-providers`, token);
      const missing = await api("GET", "/api/models/acme/no-such-chat/own-providers", token);
      expect([hidden.status, missing.status]).toEqual([404, 404]);
      expect(withoutRequestId(hidden.text).replaceAll("secret-chat", "M")).toBe(
        withoutRequestId(missing.text).replaceAll("no-such-chat", "M"),
      );
      expect(hidden.text).not.toContain("gpu");
    }
    expect((await api("GET", `/api/models/${SECRET_MODEL}/own-providers`, undefined)).status).toBe(401);
    expect(await listed(SECRET_MODEL, tokens.raeRead)).toEqual(["acme/gpu"]);
  });

  it("is never stored by a shared cache, and varies with the credentials", async () => {
    const answer = await api("GET", `/api/models/${CHAT}/own-providers`, tokens.raeRead);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(answer.headers.get("vary")).toMatch(/Authorization/);
    expect(answer.headers.get("vary")).toMatch(/Cookie/);
    expect(answer.headers.get("etag")).toBeNull();
  });
});
