import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { AUDIT_ACTIONS, type AuditAction } from "../audit/audit-log.js";
import { auditedTransactions, createAuditRecorder } from "../audit/audit-service.js";
import type { AuditEntry } from "../audit/audit-table.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { noSecretBox } from "./own-provider-secrets.js";
import { ownProvidersService } from "./own-providers-service.js";

/**
 * Changes to who serves inference leave audit log entries on a real hub: a site admin's own providers, model
 * mappings and local provider models in the site's log; an organization admin's providers, mappings and
 * prices in the organization's log, which its admins read and nobody else of it or of another organization.
 * A key's change is told, never the key; a refused change leaves nothing.
 */
const hub = useTestHub({
  // acme's server is on loopback here; nothing is called (health checks run when asked).
  orgProvidersAllowPrivate: true,
  ownProvidersHealthIntervalMs: 3_600_000,
});
const MODEL = "Qwen/Qwen2.5-7B-Instruct";
// Distinct tails: the masked hint (last four characters) must not reach the log either.
const KEY_ONE = "sk-audit-first-key-value-Zq9X";
const KEY_TWO = "sk-audit-second-key-value-Wv7K";
const KEY_ORG = "sk-audit-org-key-value-Jm3P";
const KEY_ENV = "OWN_PROVIDER_KEY_AUDIT_TEST";
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
let ottoAdminOfOther: string;

async function api(token: string, method: string, path: string, body?: unknown, type = "application/json") {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": type }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

async function ok(answer: ReturnType<typeof api>, status = 200) {
  const answered = await answer;
  expect(answered.status, answered.text).toBe(status);
  return answered;
}

/** Entries newer than `after`, oldest first, of the site's log (site admin) or an organization's. */
async function entries(after: number, org?: string, token = tokens.samWrite): Promise<AuditEntry[]> {
  const path = org === undefined ? "/api/admin/audit-log" : `/api/organizations/${org}/audit-log`;
  const answer = await ok(api(token, "GET", `${path}?limit=1000`));
  const page = (answer.json as { entries: AuditEntry[] }).entries;
  for (const entry of page) seen.add(entry.action);
  return page.filter((entry) => entry.id > after).reverse();
}

async function lastId(): Promise<number> {
  const row = await hub.store.db.get<{ id: number | string | null }>("SELECT max(id) AS id FROM audit_log");
  return Number(row?.id ?? 0);
}

/** Every action this file saw logged: the audit log's own walk (audit-log.e2e.test.ts) leaves these to it. */
const seen = new Set<string>();

const summary = (entry: AuditEntry) => ({
  action: entry.action as AuditAction,
  actorName: entry.actorName,
  namespace: entry.namespace,
  targetType: entry.targetType,
  target: entry.target,
});

beforeAll(async () => {
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  await seeded.service.createOrg({ name: "ottocorp", owner: "otto" });
  ottoAdminOfOther = tokens.ottoWrite;
  process.env[KEY_ENV] = "sk-from-the-environment";
});
afterAll(() => {
  delete process.env[KEY_ENV];
});

describe("a site admin's changes to own providers", () => {
  it("leave entries naming the admin and what changed, never the key", async () => {
    const from = await lastId();
    const base = "/api/admin/own-providers/gpu-audit";
    await ok(api(tokens.samWrite, "PUT", base, { baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY_ONE }), 201);
    await ok(
      api(tokens.samWrite, "PUT", base, {
        baseUrl: "http://127.0.0.2:1/v1",
        apiKey: KEY_TWO,
        headersTimeoutMs: 5_000,
        healthPath: "/v1/health",
      }),
    );
    await ok(api(tokens.samWrite, "PUT", base, { baseUrl: "http://127.0.0.2:1/v1", apiKeyEnv: KEY_ENV }));
    await ok(api(tokens.samWrite, "PUT", `${base}/models`, { model: MODEL, servedName: "qwen-gpu" }));
    await ok(api(tokens.samWrite, "DELETE", `${base}/models?model=${encodeURIComponent(MODEL)}`));
    await ok(api(tokens.samWrite, "DELETE", base));

    const logged = await entries(from);
    const site = { actorName: "sam", namespace: null, targetType: "provider", target: "gpu-audit" };
    expect(logged.map(summary)).toEqual(
      (
        [
          "provider.create",
          "provider.update",
          "provider.update",
          "provider.model-map",
          "provider.model-unmap",
          "provider.delete",
        ] as const
      ).map((action) => ({ action, ...site })),
    );
    const [created, replaced, moved, mapped, unmapped] = logged;
    expect(created?.details).toEqual({
      baseUrlOrigin: "http://127.0.0.1:1",
      key: "stored",
      headersTimeoutMs: expect.any(Number),
      idleTimeoutMs: expect.any(Number),
      hostedFailover: true,
    });
    expect(replaced?.details).toMatchObject({
      changed: ["baseUrl", "healthPath", "headersTimeoutMs", "apiKey"],
      baseUrlOrigin: { from: "http://127.0.0.1:1", to: "http://127.0.0.2:1" },
      headersTimeoutMs: { to: 5_000 },
      key: "replaced",
    });
    expect(moved?.details).toMatchObject({ key: `moved to the environment ${KEY_ENV}` });
    expect(mapped?.details).toEqual({ model: MODEL, kind: "chat", servedName: "qwen-gpu" });
    expect(unmapped?.details).toEqual({ model: MODEL, kind: "chat" });

    // Nothing of either key, its sealed form or its masked hint, in any stored row of the log.
    const rows = JSON.stringify(await hub.store.db.all("SELECT * FROM audit_log"));
    for (const secret of [KEY_ONE, KEY_TWO, KEY_ONE.slice(-4), KEY_TWO.slice(-4), "v1.", "sk-from-the"]) {
      expect(rows).not.toContain(secret);
    }
  });

  it("leaves no entry for a refused change", async () => {
    const from = await lastId();
    await ok(api(tokens.samWrite, "PUT", "/api/admin/own-providers/refused", { baseUrl: "ftp://x/v1" }), 400);
    await ok(
      api(tokens.samWrite, "PUT", "/api/admin/own-providers/refused", {
        baseUrl: "http://127.0.0.1:1/v1",
        apiKey: KEY_ONE,
        apiKeyEnv: KEY_ENV,
      }),
      400,
    );
    await ok(api(tokens.samWrite, "DELETE", "/api/admin/own-providers/never-added"), 404);
    // A plain user is refused before anything is written.
    await ok(
      api(tokens.wesWrite, "PUT", "/api/admin/own-providers/refused", { baseUrl: "http://127.0.0.1:1/v1" }),
      403,
    );
    expect(await lastId()).toBe(from);
  });
});

describe("an organization admin's changes to its providers", () => {
  const base = "/api/organizations/acme/providers/gpu";

  it("leave entries in the organization's log, naming the admin", async () => {
    const from = await lastId();
    await ok(api(tokens.adaWrite, "PUT", base, { baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY_ORG }), 201);
    await ok(api(tokens.adaWrite, "PUT", base, { baseUrl: "http://127.0.0.1:1/v2", idleTimeoutMs: 9_000 }));
    await ok(api(tokens.adaWrite, "PUT", `${base}/models`, { model: MODEL, servedName: "qwen-acme" }));
    await ok(
      api(tokens.adaWrite, "PUT", `${base}/prices`, { model: MODEL, inputPrice: 0.5, contextLength: 8192 }),
    );
    await ok(api(tokens.adaWrite, "DELETE", `${base}/prices?model=${encodeURIComponent(MODEL)}`));
    await ok(api(tokens.adaWrite, "PUT", `${base}/prices`, { model: MODEL, outputPrice: 1 }));
    await ok(api(tokens.adaWrite, "DELETE", `${base}/models?model=${encodeURIComponent(MODEL)}`));
    await ok(api(tokens.adaWrite, "DELETE", base));

    const logged = await entries(from, "acme", tokens.adaWrite);
    const org = { actorName: "ada", namespace: "acme", targetType: "provider", target: "acme/gpu" };
    expect(logged.map(summary)).toEqual(
      (
        [
          "provider.create",
          "provider.update",
          "provider.model-map",
          "provider.price-set",
          "provider.price-delete",
          "provider.price-set",
          "provider.model-unmap",
          "provider.delete",
        ] as const
      ).map((action) => ({ action, ...org })),
    );
    expect(logged[0]?.details).toMatchObject({ baseUrlOrigin: "http://127.0.0.1:1", key: "stored" });
    // Same origin, another path: the path itself (it may carry a token) is not told, nor is the kept key.
    expect(logged[1]?.details).toEqual({
      changed: ["baseUrl", "healthPath", "idleTimeoutMs"],
      idleTimeoutMs: { from: expect.any(Number), to: 9_000 },
    });
    expect(logged[3]?.details).toEqual({
      model: MODEL,
      inputPrice: 0.5,
      outputPrice: null,
      contextLength: 8192,
    });
    expect(logged[6]?.details).toEqual({ model: MODEL, kind: "chat", priceDeleted: true });
    const rows = JSON.stringify(await hub.store.db.all("SELECT * FROM audit_log"));
    expect(rows).not.toContain(KEY_ORG);
    expect(rows).not.toContain(KEY_ORG.slice(-4));
    // The site's admins read them too, under the organization's name.
    expect((await entries(from)).filter((entry) => entry.namespace === "acme")).toHaveLength(8);
  });

  it("are not read by a plain member nor by another organization's admin", async () => {
    await ok(api(tokens.wesWrite, "GET", "/api/organizations/acme/audit-log"), 403);
    await ok(api(ottoAdminOfOther, "GET", "/api/organizations/acme/audit-log"), 403);
    const others = await entries(0, "ottocorp", ottoAdminOfOther);
    expect(others.filter((entry) => entry.targetType === "provider")).toEqual([]);
  });

  it("leave no entry when refused", async () => {
    const from = await lastId();
    // Not an admin of acme.
    await ok(api(tokens.wesWrite, "PUT", base, { baseUrl: "http://127.0.0.1:1/v1" }), 403);
    // The service's own checks.
    await ok(api(tokens.adaWrite, "PUT", base, { baseUrl: "ftp://x/v1" }), 400);
    await ok(api(tokens.adaWrite, "PUT", base, { baseUrl: "http://127.0.0.1:1/v1" }), 201);
    const created = await lastId();
    await ok(
      api(tokens.adaWrite, "PUT", `${base}/models`, { model: "nobody/nothing", servedName: "x" }),
      404,
    );
    await ok(api(tokens.adaWrite, "PUT", `${base}/prices`, { model: MODEL, inputPrice: 1 }), 404);
    await ok(api(tokens.adaWrite, "DELETE", `${base}/models?model=${encodeURIComponent(MODEL)}`), 404);
    expect((await entries(from, "acme", tokens.adaWrite)).map((entry) => entry.id)).toEqual([created]);
    expect(await lastId()).toBe(created);
  });
});

describe("a change and its entry", () => {
  // The database refuses the entry of any target named "unrecorded": the change must not land without it.
  beforeAll(async () => {
    const db = hub.store.db;
    if (db.poolState) {
      await db.run(
        `CREATE FUNCTION refuse_unrecorded() RETURNS trigger AS $$
         BEGIN RAISE EXCEPTION 'audit entry refused by the test'; END $$ LANGUAGE plpgsql`,
      );
      await db.run(
        `CREATE TRIGGER refuse_unrecorded BEFORE INSERT ON audit_log FOR EACH ROW
         WHEN (NEW.target LIKE '%unrecorded%') EXECUTE FUNCTION refuse_unrecorded()`,
      );
    } else {
      await db.run(
        `CREATE TRIGGER refuse_unrecorded BEFORE INSERT ON audit_log WHEN NEW.target LIKE '%unrecorded%'
         BEGIN SELECT RAISE(ABORT, 'audit entry refused by the test'); END`,
      );
    }
  });
  afterAll(async () => {
    await hub.store.db.run(`DROP TRIGGER refuse_unrecorded${hub.store.db.poolState ? " ON audit_log" : ""}`);
  });

  it("land together or not at all", async () => {
    const site = "/api/admin/own-providers/unrecorded";
    const org = "/api/organizations/acme/providers/unrecorded";
    await ok(api(tokens.samWrite, "PUT", site, { baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY_ONE }), 500);
    await ok(api(tokens.samWrite, "GET", site), 404);
    await ok(api(tokens.adaWrite, "PUT", org, { baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY_ORG }), 500);
    await ok(api(tokens.adaWrite, "GET", org), 404);
  });
});

describe("a site admin's changes to the local provider", () => {
  it("leave entries naming the repository and quantization, and none when refused", async () => {
    const repo = "sam/tiny-GGUF";
    await ok(api(tokens.samWrite, "POST", "/api/repos/create", { name: repo, type: "model" }));
    const lines = [
      { key: "header", value: { summary: "add a GGUF" } },
      {
        key: "file",
        value: {
          path: "tiny-Q4_K_M.gguf",
          content: Buffer.from("GGUF tiny").toString("base64"),
          encoding: "base64",
        },
      },
    ];
    await ok(
      api(
        tokens.samWrite,
        "POST",
        `/api/models/${repo}/commit/main`,
        lines.map((line) => JSON.stringify(line)).join("\n"),
        "application/x-ndjson",
      ),
    );
    const from = await lastId();
    await ok(
      api(tokens.samWrite, "PUT", "/api/admin/local-provider/models", { model: repo, quantization: "F16" }),
      400,
    );
    expect(await lastId()).toBe(from);
    await ok(
      api(tokens.samWrite, "PUT", "/api/admin/local-provider/models", {
        model: repo,
        quantization: "q4_k_m",
      }),
    );
    await ok(
      api(tokens.samWrite, "DELETE", `/api/admin/local-provider/models?model=${repo}&quantization=Q4_K_M`),
    );
    await ok(
      api(tokens.samWrite, "DELETE", `/api/admin/local-provider/models?model=${repo}&quantization=Q4_K_M`),
      404,
    );

    const logged = await entries(from);
    const local = { actorName: "sam", namespace: null, targetType: "local-model", target: `${repo}@Q4_K_M` };
    expect(logged.map(summary)).toEqual([
      { action: "local-provider.enable", ...local },
      { action: "local-provider.disable", ...local },
    ]);
    expect(logged[0]?.details).toEqual({ filePath: "tiny-Q4_K_M.gguf" });
  });
});

describe("two simultaneous first puts of one provider", () => {
  // Each answer is whole only after its transaction: had either read the provider before the other's
  // transaction, both would find none and both be logged as the creation.
  it("leave one creation and one update in the site's log", async () => {
    const from = await lastId();
    const path = "/api/admin/own-providers/gpu-race";
    const answers = await Promise.all(
      ["http://127.0.0.1:1/v1", "http://127.0.0.2:1/v1"].map((baseUrl) =>
        api(tokens.samWrite, "PUT", path, { baseUrl }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    const logged = await entries(from);
    expect(logged.map((entry) => entry.action)).toEqual(["provider.create", "provider.update"]);
    await ok(api(tokens.samWrite, "DELETE", path));
  });

  it("through the service itself, in one process: one creation", async () => {
    // No HTTP between them: both reads are due at once (on SQLite too, whose writers take turns).
    const providers = ownProvidersService({
      db: hub.store.db,
      secrets: noSecretBox,
      findModel: async () => undefined,
      audited: auditedTransactions(hub.store.db, createAuditRecorder()),
    });
    const from = await lastId();
    const puts = await Promise.all(
      [1, 2].map((n) => providers.put("gpu-race-service", { baseUrl: `http://127.0.0.${n}:1/v1` })),
    );
    expect(puts.map((put) => put.created).sort()).toEqual([false, true]);
    const logged = await entries(from);
    expect(logged.map((entry) => entry.action)).toEqual(["provider.create", "provider.update"]);
    await providers.delete("gpu-race-service");
  });

  it("leave one creation and one update in the organization's log", async () => {
    const from = await lastId();
    const path = "/api/organizations/acme/providers/gpu-race";
    const answers = await Promise.all(
      ["http://127.0.0.1:1/v1", "http://127.0.0.2:1/v1"].map((baseUrl) =>
        api(tokens.adaWrite, "PUT", path, { baseUrl }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    const logged = await entries(from, "acme", tokens.adaWrite);
    expect(logged.map((entry) => entry.action)).toEqual(["provider.create", "provider.update"]);
    await ok(api(tokens.adaWrite, "DELETE", path));
  });
});

describe("the admin CLI's changes to own providers", () => {
  it("leave entries as the operator's, in the change's transaction", async () => {
    const from = await lastId();
    const cli = (args: string[]) => runAdminCommand(args, hub.store, []);
    await cli(["providers:add", "gpu-cli", "--base-url", "http://127.0.0.1:1/v1", "--api-key-env", KEY_ENV]);
    await cli(["providers:remove", "gpu-cli"]);
    const logged = await entries(from);
    const operator = { actorName: null, namespace: null, targetType: "provider", target: "gpu-cli" };
    expect(logged.map(summary)).toEqual([
      { action: "provider.create", ...operator },
      { action: "provider.delete", ...operator },
    ]);
    expect(logged.map((entry) => entry.actorKind)).toEqual(["operator", "operator"]);
    expect(logged[0]?.details).toMatchObject({ key: `environment ${KEY_ENV}` });
  });

  it("leave the site's offer prices, of a hosted provider, as the operator's", async () => {
    const from = await lastId();
    const cli = (args: string[]) => runAdminCommand(args, hub.store, []);
    await cli([
      "providers:price",
      "together",
      "--model",
      MODEL,
      "--input-price",
      "0.2",
      "--context-length",
      "4096",
    ]);
    await cli(["providers:unprice", "together", "--model", MODEL]);
    await expect(cli(["providers:unprice", "together", "--model", MODEL])).rejects.toThrow(/No offer/);
    const logged = await entries(from);
    const operator = { actorName: null, namespace: null, targetType: "provider", target: "together" };
    expect(logged.map(summary)).toEqual([
      { action: "provider.price-set", ...operator },
      { action: "provider.price-delete", ...operator },
    ]);
    expect(logged.map((entry) => entry.actorKind)).toEqual(["operator", "operator"]);
    expect(logged[0]?.details).toEqual({
      model: MODEL,
      inputPrice: 0.2,
      outputPrice: null,
      contextLength: 4096,
    });
    expect(logged[1]?.details).toEqual({ model: MODEL });
  });
});

it("walked every provider action the audit log knows", () => {
  const providerActions = AUDIT_ACTIONS.filter((action) => /^(local-)?provider\./.test(action));
  expect(new Set([...seen].filter((action) => /^(local-)?provider\./.test(action)))).toEqual(
    new Set(providerActions),
  );
});
