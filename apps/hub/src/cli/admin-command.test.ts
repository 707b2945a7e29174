import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { seedOnFirstStart } from "../catalogue/catalogue.js";
import { InvalidInputError } from "../errors.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import type { Store } from "../store/store.js";
import { runAdminCommand } from "./admin-command.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(async () => {
  temp = makeTempDir();
  store = await openTestStore({ dataDir: temp.dir });
  await seedOnFirstStart(store, FIXTURE_CATALOGUE_DIR, INFERENCE_PROVIDERS);
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

async function run(...args: string[]): Promise<Json> {
  const output = await runAdminCommand(args, store, INFERENCE_PROVIDERS, { readStdin: async () => stdin });
  return "text" in output ? output.text : output.json;
}
let stdin = "";

describe("admin CLI", () => {
  it("creates users, organizations, members and tokens, printing only the token", async () => {
    stdin = "correct horse battery\n";
    const admin = await run(
      "users:create",
      "alice",
      "--admin",
      "--password-stdin",
      "--email",
      "a@example.com",
    );
    expect(admin).toMatchObject({ name: "alice", isAdmin: true, hasPassword: true, email: "a@example.com" });
    expect(JSON.stringify(admin)).not.toContain("horse");
    const hash = (await store.accounts.users.passwordHash(admin.id)) as string;
    expect(hash).toMatch(/^scrypt\$/);
    await run("users:create", "bob");
    expect(await run("orgs:create", "acme", "--owner", "alice")).toMatchObject({ kind: "org", name: "acme" });
    expect(await run("orgs:add-member", "acme", "bob", "--role", "write")).toEqual({
      org: "acme",
      user: "bob",
      role: "write",
    });
    expect(await run("orgs:members", "acme")).toMatchObject([
      { user: "alice", role: "admin" },
      { user: "bob", role: "write" },
    ]);

    const token = await run("tokens:create", "--user", "bob", "--role", "read", "--name", "laptop");
    expect(token).toMatch(/^hf_[A-Za-z0-9]{34}$/);
    const listed = await run("tokens:list", "--user", "bob");
    expect(listed).toMatchObject([{ name: "laptop", role: "read", revokedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await run("tokens:revoke", "--id", String(listed[0].id))).revokedAt).toEqual(expect.any(String));

    const disabled = await run("users:disable", "bob");
    expect(disabled.disabled).toBe(true);
  });

  it("audits what it changes, once per action, as the operator's", async () => {
    await run("users:create", "alice");
    await run("users:create", "bob");
    await run("orgs:create", "acme", "--owner", "alice");
    await run("orgs:add-member", "acme", "bob", "--role", "read");
    await run("orgs:add-member", "acme", "bob", "--role", "write");
    await run("tokens:create", "--user", "bob", "--role", "read", "--name", "laptop");
    const [token] = await run("tokens:list", "--user", "bob");
    await run("tokens:revoke", "--id", String(token.id));
    await run("orgs:remove-member", "acme", "bob");
    const blobs = await createFsBlobStore(join(temp.dir, "blobs"));
    await runAdminCommand(["repos:create", "acme/cli-made"], store, INFERENCE_PROVIDERS, {
      readStdin: async () => "",
      openBlobs: async () => blobs,
    });
    const entries = (await store.audit.list({ limit: 100 })).reverse();
    expect(entries.map(({ action, target }) => ({ action, target }))).toEqual([
      { action: "member.role", target: "bob" },
      { action: "member.role", target: "bob" },
      { action: "token.create", target: "laptop" },
      { action: "token.revoke", target: "laptop" },
      { action: "member.remove", target: "bob" },
      { action: "repo.create", target: "model/acme/cli-made" },
    ]);
    for (const entry of entries) expect(entry).toMatchObject({ actorKind: "operator", ip: null });
    expect(entries[1]!.details).toEqual({ from: "read", to: "write" });
  });

  it("refuses bad account input with a clear error", async () => {
    await run("users:create", "alice");
    await expect(run("users:create", "alice")).rejects.toThrow(/already taken/);
    await expect(run("users:create", "ALICE")).rejects.toThrow(/already taken/);
    await expect(run("users:create", "bad--name")).rejects.toThrow(/Invalid user name/);
    await expect(run("users:create", "settings")).rejects.toThrow(/reserved/);
    await expect(run("users:create")).rejects.toThrow(/Missing <name>/);
    stdin = "short\n";
    await expect(run("users:create", "carol", "--password-stdin")).rejects.toThrow(/at least 8/);
    await expect(run("orgs:create", "acme", "--owner", "nobody")).rejects.toThrow(/No user named "nobody"/);
    await run("orgs:create", "acme", "--owner", "alice");
    await expect(run("orgs:create", "alice", "--owner", "alice")).rejects.toThrow(/already taken/);
    await expect(run("orgs:add-member", "acme", "alice", "--role", "owner")).rejects.toThrow(
      /read, write, admin/,
    );
    await expect(run("orgs:add-member", "acme", "alice", "--role", "read")).rejects.toThrow(/last admin/);
    await expect(run("tokens:create", "--user", "alice", "--role", "admin")).rejects.toThrow(/read or write/);
    await expect(run("tokens:create", "--user", "nobody", "--role", "read")).rejects.toThrow(/No user/);
    await expect(run("tokens:create", "--role", "read")).rejects.toThrow(/Missing --user/);
    await expect(run("tokens:revoke", "--id", "999")).rejects.toThrow(/not found/);
    await expect(run("users:disable", "nobody")).rejects.toThrow(/No user/);
  });

  it("puts models, sets and deletes mappings, imports files", async () => {
    const file = join(temp.dir, "model.json");
    writeFileSync(file, JSON.stringify({ id: "acme/m1", tags: [], pipeline_tag: "fill-mask" }));
    expect(await run("models:put", "--file", file)).toEqual({ id: "acme/m1", created: true });
    await run(
      "mappings:set",
      "--model",
      "acme/m1",
      "--provider",
      "hf-inference",
      "--task",
      "fill-mask",
      "--status",
      "live",
      "--provider-id",
      "acme/m1",
    );
    expect(await store.mappings.forModel("acme/m1")).toEqual({
      "hf-inference": { status: "live", providerId: "acme/m1", task: "fill-mask" },
    });
    await run("mappings:delete", "--model", "acme/m1", "--provider", "hf-inference");
    await run("models:delete", "--id", "acme/m1");
    expect(await store.models.get("acme/m1")).toBeUndefined();
    writeFileSync(file, JSON.stringify([{ id: "acme/m2", tags: ["x"] }]));
    expect(await run("import", "--file", file)).toEqual({ models: 1, mappings: 0 });
  });

  it("explains unknown commands, unknown options and missing values", async () => {
    await expect(run("tokens:explode")).rejects.toThrow(/Unknown command "tokens:explode"/);
    await expect(run("tokens:create")).rejects.toThrow(/Missing --role/);
    await expect(run("tokens:create", "--nam", "x")).rejects.toThrow(InvalidInputError);
    await expect(
      run(
        "mappings:set",
        "--model",
        "acme/none",
        "--provider",
        "acme-ai",
        "--task",
        "x",
        "--status",
        "live",
        "--provider-id",
        "x",
      ),
    ).rejects.toThrow(/Unknown provider/);
  });

  it("prints a single-use sign-up invite link, and usage per user", async () => {
    const link = await runAdminCommand(["invites:create", "--days", "2"], store, INFERENCE_PROVIDERS, {
      readStdin: async () => "",
      publicUrl: "https://hub.example.com",
    });
    expect("text" in link && link.text).toMatch(/^https:\/\/hub\.example\.com\/join\?invite=[\w-]{32}$/);
    const code = new URL((link as { text: string }).text).searchParams.get("invite")!;
    const { accountsService } = await import("../accounts/accounts-service.js");
    await accountsService(store.accounts).createUser({ name: "invited", inviteCode: code });
    await expect(
      accountsService(store.accounts).createUser({ name: "second", inviteCode: code }),
    ).rejects.toThrow(/invalid, used or expired/);
    await expect(run("invites:create", "--days", "365")).rejects.toThrow(/from 1 to 90/);
    expect(await run("usage", "--by", "user")).toMatchObject({ by: "user", usage: [] });
    await expect(run("usage", "--by", "team")).rejects.toThrow(/--by must be user or org/);
  });

  it("shows the scan queue and queues every scanned content again", async () => {
    const now = new Date().toISOString();
    const item = { sha256: "c".repeat(64), nameClass: "pkl", path: "m.pkl", size: 1, repoKey: 1 };
    await store.scanning.enqueue([{ ...item, contentKey: `${item.sha256}:pkl`, status: "pending" }], now);
    const claimed = await store.scanning.claim("cli-test", now, now);
    await store.scanning.complete(claimed!.contentKey, "cli-test", {
      report: {
        verdict: "unsafe",
        scanners: ["pickle"],
        pickleImports: [],
        findings: [],
        antivirus: { status: "not-scanned", virusNames: [] },
      },
      rulesVersion: "v1",
      now,
    });
    expect(await run("scan:status")).toMatchObject({ done: 1, unsafe: 1, pending: 0 });
    expect(await run("scan:rescan")).toEqual({ requeued: 1 });
    expect(await run("scan:status")).toMatchObject({ done: 0, pending: 1 });
  });
});
