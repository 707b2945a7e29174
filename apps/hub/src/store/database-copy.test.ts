import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { ownPostgresUrl } from "../__fixtures__/test-store.js";
import { ANONYMOUS } from "../auth/actor.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { createLocalProviderTable } from "../router/local-provider-table.js";
import { orgOwnProvidersService } from "../router/org-own-providers-service.js";
import { noSecretBox } from "../router/own-provider-secrets.js";
import { ownProvidersService } from "../router/own-providers-service.js";
import { type RunningHub, startHub } from "../start-hub.js";
import type { Queryable } from "./database.js";
import { listTables, tableRows } from "./schema-tables.js";
import { openStore, type Store } from "./store.js";

/**
 * `db:copy`: a SQLite hub with rows in every table of its schema, copied into a new PostgreSQL database, reads
 * back the same row for row; a hub started on the copy serves it and adds rows with fresh ids. The tables are
 * read from SQLite's schema, so a table added by a later migration fails this test until it gets rows here.
 */
let temp: ReturnType<typeof makeTempDir>;
let postgres: { url: string; stop(): void };
let source: RunningHub;

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hex64 = () => randomBytes(32).toString("hex");

/** Rows with their keys in one order, sorted: what two databases holding the same rows both read as. */
async function contentOf(q: Queryable, table: string): Promise<string[]> {
  const rows = await tableRows(q, table);
  return rows
    .map((row) =>
      JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)))),
    )
    .sort();
}

/** Rows in every table, through the hub's API where a caller makes them and its tables where the hub does. */
async function fillEveryTable(hub: RunningHub): Promise<void> {
  const store = hub.store;
  const { service, tokens } = await seedAccounts(store);
  const ada = await service.user("ada");
  const acme = (await store.accounts.orgs.byName("acme"))!;
  const api = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${hub.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${init.token ?? tokens.adaWrite}`,
        "Content-Type": "application/json",
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  // Repositories, commits, files, trees, refs, a rename, a discussion with a comment, a pull request.
  expect(
    (await api("/api/repos/create", { method: "POST", body: JSON.stringify({ name: "ada/copied" }) })).status,
  ).toBe(200);
  const commit = (summary: string, path: string, content: string, branch = "main") =>
    api(`/api/models/ada/copied/commit/${branch}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: [
        { key: "header", value: { summary } },
        {
          key: "file",
          value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    });
  expect((await commit("first", "dir/a.txt", "alpha")).status).toBe(200);
  expect((await commit("second", "b.txt", "beta")).status).toBe(200);
  const discussion = await api("/api/models/ada/copied/discussions", {
    method: "POST",
    body: JSON.stringify({ title: "Question", description: "Hello", pullRequest: false }),
  });
  expect(discussion.status).toBe(200);
  const { num } = (await discussion.json()) as { num: number };
  expect(
    (
      await api(`/api/models/ada/copied/discussions/${num}/comment`, {
        method: "POST",
        body: JSON.stringify({ comment: "Reply" }),
      })
    ).status,
  ).toBe(200);
  const pr = await api("/api/models/ada/copied/discussions", {
    method: "POST",
    body: JSON.stringify({ title: "Change", description: "A pull request", pullRequest: true }),
  });
  expect(pr.status).toBe(200);
  expect(
    (await commit("in the PR", "c.txt", "gamma", `refs%2Fpr%2F${((await pr.json()) as { num: number }).num}`))
      .status,
  ).toBe(200);
  expect(
    (
      await api("/api/repos/move", {
        method: "POST",
        body: JSON.stringify({ fromRepo: "ada/copied", toRepo: "acme/copied", type: "model" }),
      })
    ).status,
  ).toBe(200);
  const repo = (await store.repos.get("model", "acme/copied"))!;
  const lfs = Buffer.from("large file content");
  await store.repos.addLfsObject(repo.key, sha256(lfs), lfs.byteLength, new Date().toISOString());
  await store.uploadParts.record(repo.key, sha256(lfs), 1, hex64(), new Date().toISOString());

  // Xet: a xorb with its chunks, a file made of it, registered for the repository.
  const xorb = hex64();
  await store.xet.addXorb({ hash: xorb, blobSha256: hex64(), size: 100, chunkCount: 1 }, [
    { index: 0, hash: hex64(), byteStart: 0, byteEnd: 100, unpackedSize: 120 },
  ]);
  await store.xetGc.registerFiles(
    [{ hash: hex64(), sha256: hex64(), size: 120, terms: [{ xorb, start: 0, end: 1, size: 120 }] }],
    repo.key,
  );
  // Quotas: a xorb and a file uploaded through Xet that no commit references yet (5 GB: BIGINT).
  await store.storageUsage.addPending(
    repo.key,
    [
      { item: xorb, size: 5_000_000_000 },
      { item: hex64(), sha256: hex64(), size: 120 },
    ],
    new Date().toISOString(),
  );

  // Engagement: a like, a day's downloads (past 2^31: BIGINT), a catalogue record's source figures.
  await store.engagement.like(ada.id, repo.key, repo.id);
  await store.engagement.addDownloads([
    { repoKey: repo.key, day: "2026-11-29", downloads: 3_000_000_000, modelId: repo.id },
  ]);
  await store.engagement.setSourceFigures(repo.id, {
    source: "huggingface.co",
    downloads: 6_800_000,
    likes: 4,
  });

  // The mirror: a mirrored repository's ref check, declared LFS content (past 2 GiB: BIGINT on PostgreSQL),
  // and an upstream xorb chunk mapped to a local chunk.
  await store.repos.insert({
    type: "dataset",
    id: "upstream/mirrored",
    owner: "upstream",
    private: false,
    gated: false,
    now: new Date().toISOString(),
    mirrorOf: "https://upstream.test",
  });
  await store.mirror.markRefChecked(repo.key, "refs/heads/main", new Date().toISOString());
  await store.mirror.declareContent({ sha256: hex64(), size: 5 * 1024 ** 3, xetHash: hex64() });
  await store.db.run(
    "INSERT INTO mirror_xorb_chunks (upstream_xorb, chunk_index, chunk_hash) VALUES (?, ?, ?)",
    [hex64(), 0, hex64()],
  );

  // The scanner: a queued content and an owner's opt-in to serve one.
  const scanned = hex64();
  await store.scanning.enqueue(
    [
      {
        contentKey: `${scanned}:pkl`,
        sha256: scanned,
        nameClass: "pkl",
        path: "model.pkl",
        size: 10,
        repoKey: repo.key,
        status: "pending",
      },
    ],
    new Date().toISOString(),
  );
  await store.scanning.allow({
    repoKey: repo.key,
    sha256: scanned,
    path: "model.pkl",
    allowedBy: "ada",
    allowedAt: new Date().toISOString(),
  });
  // The dataset viewer: a conversion job that failed, with its reason.
  const converting = new Date().toISOString();
  await store.viewer.enqueue(repo.key, "c".repeat(40), converting);
  await store.viewer.claim("copy-test", converting, "9999-01-01T00:00:00.000Z");
  await store.viewer.finish(repo.key, "copy-test", {
    commitOid: "c".repeat(40),
    now: converting,
    error: "a ragged CSV",
  });
  // And a full-text index file it built (migration 49).
  await store.viewer.recordIndexFile(repo.key, "d".repeat(64), converting);
  // And a Parquet cache file it kept (migration 51).
  await store.viewer.recordParquetFile(repo.key, "e".repeat(64), converting);

  // Accounts: a session, a gated-access request, invites, a single sign-on identity, failed sign-ins,
  // provider preferences.
  await store.accounts.sessions.create({
    idHash: hex64(),
    userId: ada.id,
    csrfToken: "csrf",
    expiresAt: "2999-01-01T00:00:00.000Z",
  });
  await store.accounts.accessRequests.request({
    repoType: "model",
    repoId: "acme/copied",
    userId: ada.id,
    status: "pending",
    fields: { why: "research" },
  });
  await store.accounts.invites.create({
    codeHash: hex64(),
    createdBy: ada.id,
    expiresAt: "2999-01-01T00:00:00.000Z",
  });
  await store.orgInvites.create({
    codeHash: hex64(),
    orgId: acme.id,
    role: "read",
    createdBy: ada.id,
    expiresAt: "2999-01-01T00:00:00.000Z",
  });
  await store.oidcIdentities.link("https://issuer.test", "subject-1", ada.id);
  await store.accounts.signInFailures.add("ada", 1_700_000_000_000);
  await store.providerPreferences.set(ada.id, ["together", "groq"]);
  // An own inference provider (its key named by variable: nothing sealed) and a model it serves.
  const ownProviders = ownProvidersService({
    db: store.db,
    secrets: noSecretBox,
    findModel: async (id) => ({ id }),
  });
  await ownProviders.put("gpu-1", { baseUrl: "http://gpu-1:8000/v1", apiKeyEnv: "OWN_PROVIDER_KEY_GPU1" });
  await ownProviders.putModel("gpu-1", { model: "ada/copied", servedName: "copied" });
  // What the router tells of its price and context length (a price with decimals: a float column).
  await ownProviders.putOffer("gpu-1", {
    model: "ada/copied",
    inputPrice: 0.15,
    outputPrice: 0.6,
    contextLength: 8192,
  });
  // An organization's own provider (no key: nothing sealed) and a model it serves (migration 43).
  const orgProviders = orgOwnProvidersService({
    db: store.db,
    secrets: noSecretBox,
    findOrg: async (name) => (name === "acme" ? { id: acme.id, name: acme.name } : undefined),
    findVisibleModel: async (id) => ({ id }),
    checkTarget: async () => {},
  });
  await orgProviders.put("acme", "gpu-2", { baseUrl: "http://gpu-2:8000/v1" }, "ada");
  await orgProviders.putModel("acme", "gpu-2", { model: "acme/copied", servedName: "copied" }, ANONYMOUS);
  // Its price for that model (migration 50).
  await orgProviders.putPrice(
    "acme",
    "gpu-2",
    { model: "acme/copied", inputPrice: 0.1, outputPrice: 0.4, contextLength: 4096 },
    ANONYMOUS,
    "ada",
  );
  // A model the built-in llama.cpp provider runs (migration 38).
  await createLocalProviderTable(store.db).put({
    modelId: "ada/copied",
    quantization: "Q4_K_M",
    filePath: "copied-Q4_K_M.gguf",
    enabledBy: "admin-cli",
    createdAt: new Date().toISOString(),
  });
  await store.meta.set("copied", "yes");
  // A commit as git wrote it (git/git-push.ts keeps the body of pushed commits): on the repository's head.
  const copiedRepo = (await store.repos.get("model", "acme/copied"))!;
  const headOid = (await store.repos.ref(copiedRepo.key, "refs/heads/main"))!;
  await store.gitCommits.insert(copiedRepo.key, headOid, "tree 0\nauthor A <a@b> 1 +0000\n\nmessage\n");
  // Webhooks: one watching the copied repository (its watch rows), a queued event and a logged delivery.
  const webhookId = "0123456789abcdef01234567";
  await store.webhooks.insert({
    id: webhookId,
    ownerId: ada.id,
    url: "http://203.0.113.7/hook",
    secret: "copied-secret",
    domains: ["repo"],
    watched: [{ type: "model", name: "acme/copied" }],
    now: new Date().toISOString(),
  });
  await store.webhooks.enqueueEvent({
    repoType: "model",
    repoId: "acme/copied",
    repoOwner: "acme",
    repoPrivate: false,
    scope: "repo",
    event: "{}",
    now: new Date().toISOString(),
  });
  await store.webhooks.insertDelivery({ webhookId, payload: "{}", now: new Date().toISOString() });
  // Rate limits: one caller's count in the current window (a window far ahead: never pruned meanwhile).
  await store.rateLimits.add([{ bucket: "api", subject: "t:1", windowStart: 4_102_444_800_000, count: 3 }]);

  // Router usage: per call and the daily totals.
  const [token] = await store.accounts.tokens.list(ada.id);
  store.usage.record({
    tokenId: token!.id,
    userId: ada.id,
    billToId: acme.id,
    provider: "together",
    model: "m",
    status: 200,
    requestBytes: 10,
    responseBytes: 20,
    durationMs: 5,
  });
  await store.usage.flush();

  // A collection holding a repository (collections/).
  const created = await api("/api/collections", {
    method: "POST",
    body: JSON.stringify({ title: "Copied", namespace: "ada" }),
  });
  expect(created.status).toBe(200);
  const { slug } = (await created.json()) as { slug: string };
  const added = await api(`/api/collections/${slug}/items`, {
    method: "POST",
    body: JSON.stringify({ item: { type: "model", id: "acme/copied" }, note: "a note" }),
  });
  expect(added.status).toBe(200);
  // A storage bucket with a file and the upload it came from (buckets/, migration 46).
  const at = new Date().toISOString();
  const bucket = (await store.buckets.insert({
    id: "ada/copied-bucket",
    owner: "ada",
    private: true,
    now: at,
  }))!;
  await store.buckets.addUploads(bucket.key, ["c".repeat(64)], at);
  await store.buckets.putFile(bucket.key, {
    path: "a/b.bin",
    xetHash: "c".repeat(64),
    size: 3,
    uploadedAt: at,
  });
}

beforeAll(async () => {
  temp = makeTempDir();
  postgres = await ownPostgresUrl("copy");
  // The source is SQLite whichever database the suite runs on: that is what the command copies from.
  source = await startHub({
    dataDir: join(temp.dir, "sqlite"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerSim: false,
    // Queued, not scanned: a scan finishing during the copy would change what is compared.
    scanning: { workers: false },
    // Nor delivered: a webhook event fanned out during the copy would change it too.
    webhooks: { workers: false },
  });
  await fillEveryTable(source);
}, 60_000);

afterAll(async () => {
  await source?.close();
  postgres?.stop();
  temp?.remove();
});

describe("db:copy from SQLite to PostgreSQL", () => {
  let target: Store;

  it("copies every row of every table, and the copy reads back the same", async () => {
    const tables = await listTables(source.store.db);
    const empty: string[] = [];
    for (const table of tables) if ((await tableRows(source.store.db, table)).length === 0) empty.push(table);
    expect(empty, "tables this test leaves empty: give them rows in fillEveryTable").toEqual([]);

    const output = await runAdminCommand(["db:copy", "--to", postgres.url], source.store, []);
    const report = (
      output as { json: { from: string; to: string; tables: { table: string; rows: number }[] } }
    ).json;
    expect(report.tables.map((t) => t.table).sort()).toEqual([...tables].sort());
    expect(report.from).toMatch(/^sqlite:/);

    target = await openStore({ dataDir: temp.dir, databaseUrl: postgres.url });
    expect((await listTables(target.db)).sort()).toEqual([...tables].sort());
    for (const table of tables) {
      const copied = report.tables.find((t) => t.table === table)!.rows;
      const rows = await contentOf(source.store.db, table);
      expect(copied, table).toBe(rows.length);
      expect(await contentOf(target.db, table), table).toEqual(rows);
    }
  }, 60_000);

  it("refuses to copy into a database that already holds data", async () => {
    await expect(runAdminCommand(["db:copy", "--to", postgres.url], source.store, [])).rejects.toThrow(
      /already holds data/,
    );
  });

  it("a hub on the copy serves the copied data and gives new rows fresh ids", async () => {
    await target.close();
    const hub = await startHub({
      // The same DATA_DIR: the copy moves the database; the blobs stay where they are.
      dataDir: join(temp.dir, "sqlite"),
      databaseUrl: postgres.url,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerSim: false,
    });
    try {
      const ada = (await hub.store.accounts.users.byName("ada"))!;
      const maxAccount = Math.max(...(await hub.store.accounts.users.list()).map((user) => user.id));
      const maxToken = Math.max(...(await hub.store.accounts.tokens.list()).map((token) => token.id));
      // A new token (a generated key) for a copied user; with it, the copied repository, its files and its
      // old name's redirect.
      const issued = await runAdminCommand(
        ["tokens:create", "--user", "ada", "--role", "write"],
        hub.store,
        [],
      );
      const headers = { Authorization: `Bearer ${(issued as { text: string }).text}` };
      const newToken = (await hub.store.accounts.tokens.list(ada.id)).find((token) => token.id > maxToken);
      expect(newToken, "a new token with an id after the copied ones").toBeDefined();
      expect((await fetch(`${hub.url}/api/models/acme/copied`, { headers })).status).toBe(200);
      expect(
        (await fetch(`${hub.url}/api/models/ada/copied`, { headers, redirect: "manual" })).status,
      ).toBeLessThan(400);
      expect(await (await fetch(`${hub.url}/acme/copied/resolve/main/dir/a.txt`, { headers })).text()).toBe(
        "alpha",
      );
      await runAdminCommand(["users:create", "newcomer"], hub.store, []);
      expect((await hub.store.accounts.users.byName("newcomer"))!.id).toBeGreaterThan(maxAccount);
      expect(
        (
          await fetch(`${hub.url}/api/repos/create`, {
            method: "POST",
            headers: { ...headers, "Content-Type": "application/json" },
            body: JSON.stringify({ name: "ada/after-copy" }),
          })
        ).status,
      ).toBe(200);
    } finally {
      await hub.close();
    }
  }, 60_000);
});
