import BetterSqlite3 from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

/**
 * Attacks on the repository lookups kept under the database's change mark (repos/repo-lookup-cache.ts): a
 * stranger whose `HEAD /resolve` of a public file was answered a moment ago must be refused the moment the
 * repository turns private or gated, however it turned (the owner's settings call, or the admin CLI writing
 * to the SQLite file from another process), and everyone must get the commit a branch points at now.
 * Against a real hub on loopback, on SQLite and PostgreSQL.
 */
const hub = useTestHub();
const ID = "alice/cached-visibility";
let alice: string;
let mallory: string;

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const head = (token: string | undefined) => call(token, "HEAD", `/${ID}/resolve/main/config.json`);
/** Read twice, so that the second answer is the one a kept lookup would give. */
const headTwice = async (token: string | undefined) => {
  await head(token);
  return head(token);
};
const settings = (body: unknown) => call(alice, "PUT", `/api/models/${ID}/settings`, body);
/** The admin CLI's kind of write: another connection to the database, not through this hub. */
async function writeAround(sql: string, params: unknown[]) {
  const { description } = hub.store.db;
  if (!description.startsWith("sqlite:")) {
    await hub.store.db.run(sql, params);
    return;
  }
  const other = new BetterSqlite3(description.slice("sqlite:".length));
  try {
    other.pragma("busy_timeout = 5000");
    other.prepare(sql).run(...params);
  } finally {
    other.close();
  }
}
async function commit(content: string): Promise<string> {
  const lines = [
    { key: "header", value: { summary: "config" } },
    {
      key: "file",
      value: { path: "config.json", content: Buffer.from(content).toString("base64"), encoding: "base64" },
    },
  ];
  const committed = await fetch(`${hub.url}/api/models/${ID}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(committed.status).toBe(200);
  return ((await committed.json()) as { commitOid: string }).commitOid;
}

describe("kept repository lookups never outlive a change of visibility, gating or ref", () => {
  beforeAll(async () => {
    alice = await userToken(hub.store, "alice");
    mallory = await userToken(hub.store, "mallory");
    expect((await call(alice, "POST", "/api/repos/create", { name: ID, type: "model" })).status).toBe(200);
    await commit('{"model_type":"llama"}');
  });

  it("refuses a stranger at once when the owner makes the repository private", async () => {
    expect((await headTwice(mallory)).status).toBe(200);
    expect((await headTwice(undefined)).status).toBe(200);
    expect((await settings({ private: true })).status).toBe(200);
    expect((await head(mallory)).status).toBe(404);
    expect((await head(undefined)).status).toBe(401);
    expect((await head(alice)).status).toBe(200);
    expect((await settings({ private: false })).status).toBe(200);
    expect((await headTwice(mallory)).status).toBe(200);
  });

  it("refuses a stranger at once when another process makes it private (the admin CLI)", async () => {
    expect((await headTwice(mallory)).status).toBe(200);
    const key = (await hub.store.repos.get("model", ID))!.key;
    await writeAround("UPDATE repos SET private = 1 WHERE id = ?", [key]);
    expect((await head(mallory)).status).toBe(404);
    await writeAround("UPDATE repos SET private = 0 WHERE id = ?", [key]);
    expect((await headTwice(mallory)).status).toBe(200);
  });

  it("asks for access at once when another process gates it", async () => {
    expect((await headTwice(undefined)).status).toBe(200);
    const key = (await hub.store.repos.get("model", ID))!.key;
    await writeAround("UPDATE repos SET gated = 'manual' WHERE id = ?", [key]);
    expect((await head(undefined)).status).toBe(401);
    expect((await head(mallory)).status).toBe(403);
    await writeAround("UPDATE repos SET gated = NULL WHERE id = ?", [key]);
    expect((await headTwice(mallory)).status).toBe(200);
  });

  it("answers the commit the branch points at now, with that commit's file", async () => {
    const before = await headTwice(mallory);
    const oid = await commit('{"model_type":"mistral"}');
    const after = await head(mallory);
    expect(after.status).toBe(200);
    expect(after.headers.get("X-Repo-Commit")).toBe(oid);
    expect(after.headers.get("X-Repo-Commit")).not.toBe(before.headers.get("X-Repo-Commit"));
    expect(after.headers.get("ETag")).not.toBe(before.headers.get("ETag"));
    const body = await call(mallory, "GET", `/${ID}/resolve/main/config.json`);
    expect(await body.text()).toBe('{"model_type":"mistral"}');
  });

  it("answers nothing of a deleted repository, nor the old one for a new repository of the same id", async () => {
    expect((await headTwice(mallory)).status).toBe(200);
    expect((await call(alice, "DELETE", "/api/repos/delete", { name: ID, type: "model" })).status).toBe(200);
    expect((await head(mallory)).status).toBe(404);
    expect(
      (await call(alice, "POST", "/api/repos/create", { name: ID, type: "model", private: true })).status,
    ).toBe(200);
    expect((await hub.store.repos.get("model", ID))!.private).toBe(true);
    expect((await head(mallory)).status).toBe(404);
  });
});
