import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { AUDIT_ACTIONS } from "../audit/audit-log.js";
import type { AuditEntry } from "../audit/audit-table.js";
import { runAdminCommand } from "../cli/admin-command.js";

/**
 * Site admins' changes to the models catalogue (models and their provider mappings) leave entries in the
 * site's log on a real hub, from the admin API as the caller's and from the admin CLI as the operator's; a
 * refused change leaves none.
 */
const hub = useTestHub();
const temp = makeTempDir();
let samWrite: string;

const MODEL = {
  id: "AuditOrg/audit-model",
  pipeline_tag: "text-generation",
  library_name: "transformers",
  tags: ["transformers", "text-generation"],
};
const MAPPING = { status: "staging", providerId: "auditorg/audit-model-fast", task: "conversational" };

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${samWrite}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text };
}

async function ok(answer: ReturnType<typeof api>, status = 200) {
  const answered = await answer;
  expect(answered.status, answered.text).toBe(status);
}

async function lastId(): Promise<number> {
  const row = await hub.store.db.get<{ id: number | string | null }>("SELECT max(id) AS id FROM audit_log");
  return Number(row?.id ?? 0);
}

/** The site log's entries newer than `after`, oldest first. */
async function entries(after: number): Promise<AuditEntry[]> {
  const response = await fetch(`${hub.url}/api/admin/audit-log?limit=1000`, {
    headers: { Authorization: `Bearer ${samWrite}` },
  });
  expect(response.status).toBe(200);
  const { entries: page } = (await response.json()) as { entries: AuditEntry[] };
  return page.filter((entry) => entry.id > after).reverse();
}

const summary = (entry: AuditEntry) => ({
  action: entry.action,
  actorKind: entry.actorKind,
  actorName: entry.actorName,
  namespace: entry.namespace,
  targetType: entry.targetType,
  target: entry.target,
});

beforeAll(async () => {
  samWrite = (await seedAccounts(hub.store)).tokens.samWrite;
});
afterAll(() => temp.remove());

describe("a site admin's changes to the catalogue through the admin API", () => {
  it("leave one entry each, naming the admin, the model and the mapping's provider", async () => {
    const from = await lastId();
    const models = "/api/admin/models";
    await ok(api("POST", models, MODEL), 201);
    await ok(api("PUT", `${models}/${MODEL.id}`, { ...MODEL, tags: ["transformers"] }));
    await ok(api("PUT", `${models}/${MODEL.id}/mappings/together`, MAPPING));
    await ok(api("DELETE", `${models}/${MODEL.id}/mappings/together`));
    await ok(api("DELETE", `${models}/${MODEL.id}`));

    const logged = await entries(from);
    const sam = {
      actorKind: "user",
      actorName: "sam",
      namespace: null,
      targetType: "model",
      target: MODEL.id,
    };
    expect(logged.map(summary)).toEqual(
      ["model.create", "model.update", "model.mapping-set", "model.mapping-delete", "model.delete"].map(
        (action) => ({ action, ...sam }),
      ),
    );
    expect(logged[2]?.details).toEqual({ provider: "together", ...MAPPING });
    expect(logged[3]?.details).toEqual({ provider: "together" });
  });

  it("leave none when refused", async () => {
    await ok(api("POST", "/api/admin/models", MODEL), 201);
    const from = await lastId();
    await ok(api("POST", "/api/admin/models", MODEL), 409);
    await ok(api("DELETE", "/api/admin/models/AuditOrg/never-there"), 404);
    await ok(api("PUT", `/api/admin/models/AuditOrg/never-there/mappings/together`, MAPPING), 404);
    await ok(api("DELETE", `/api/admin/models/${MODEL.id}/mappings/together`), 404);
    expect(await lastId()).toBe(from);
  });

  it("two simultaneous creations of one model: one entry, one refusal", async () => {
    const from = await lastId();
    const record = { ...MODEL, id: "AuditOrg/raced-model" };
    const answers = await Promise.all([1, 2].map(() => api("POST", "/api/admin/models", record)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await entries(from)).map((entry) => entry.action)).toEqual(["model.create"]);
  });
});

describe("the admin CLI's changes to the catalogue", () => {
  it("leave entries as the operator's: models:put, mappings:set|delete, models:delete, import", async () => {
    const from = await lastId();
    const cli = (args: string[]) => runAdminCommand(args, hub.store, ["together"]);
    const id = "AuditOrg/cli-model";
    const file = join(temp.dir, "model.json");
    writeFileSync(file, JSON.stringify({ ...MODEL, id }));
    await cli(["models:put", "--file", file]);
    await cli(["models:put", "--file", file]);
    await cli(
      ["mappings:set", "--model", id, "--provider", "together", "--task", "conversational"].concat([
        "--status",
        "live",
        "--provider-id",
        "cli-fast",
      ]),
    );
    await cli(["mappings:delete", "--model", id, "--provider", "together"]);
    await cli(["models:delete", "--id", id]);
    const catalogue = join(temp.dir, "catalogue.json");
    writeFileSync(
      catalogue,
      JSON.stringify([
        { ...MODEL, id: "AuditOrg/imported", inferenceProviderMapping: { together: MAPPING } },
        { ...MODEL, id: "AuditOrg/imported-2" },
      ]),
    );
    await cli(["import", "--file", catalogue]);

    const logged = await entries(from);
    const operator = { actorKind: "operator", actorName: null, namespace: null, targetType: "model" };
    expect(logged.map(summary)).toEqual([
      ...["model.create", "model.update", "model.mapping-set", "model.mapping-delete", "model.delete"].map(
        (action) => ({ action, ...operator, target: id }),
      ),
      { action: "catalogue.import", ...operator, target: null },
    ]);
    expect(logged[2]?.details).toEqual({
      provider: "together",
      status: "live",
      providerId: "cli-fast",
      task: "conversational",
    });
    expect(logged[5]?.details).toEqual({ models: 2, mappings: 1 });
  });
});

it("walked every catalogue action the audit log knows", () => {
  // audit-log.e2e.test.ts's walk leaves these to this file.
  expect(AUDIT_ACTIONS.filter((action) => /^(model|catalogue)\./.test(action)).sort()).toEqual(
    [
      "catalogue.import",
      "model.create",
      "model.delete",
      "model.mapping-delete",
      "model.mapping-set",
      "model.update",
    ].sort(),
  );
});
