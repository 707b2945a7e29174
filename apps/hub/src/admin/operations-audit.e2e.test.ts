import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { AUDIT_ACTIONS } from "../audit/audit-log.js";
import type { AuditEntry } from "../audit/audit-table.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { openBlobStore } from "../storage/blob-store-config.js";

/**
 * The site's operations that change the hub without touching an account, a repository or a provider leave
 * entries in the site's log on a real hub: sign-up invites (never their code), re-scans, evictions of the
 * mirror's cache and blob collections, from the admin API as the caller's and from the admin CLI as the
 * operator's. A dry run changes nothing and leaves nothing.
 */
const hub = useTestHub();
let samWrite: string;

async function post(path: string, body: unknown = {}) {
  const response = await fetch(`${hub.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${samWrite}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
}

async function lastId(): Promise<number> {
  const row = await hub.store.db.get<{ id: number | string | null }>("SELECT max(id) AS id FROM audit_log");
  return Number(row?.id ?? 0);
}

async function entries(after: number): Promise<AuditEntry[]> {
  const response = await fetch(`${hub.url}/api/admin/audit-log?limit=1000`, {
    headers: { Authorization: `Bearer ${samWrite}` },
  });
  const { entries: page } = (await response.json()) as { entries: AuditEntry[] };
  return page.filter((entry) => entry.id > after).reverse();
}

const cli = (args: string[]) =>
  runAdminCommand(args, hub.store, [], {
    readStdin: async () => "",
    openBlobs: () => openBlobStore({ kind: "fs" }, hub.dataDir),
  });

beforeAll(async () => {
  samWrite = (await seedAccounts(hub.store)).tokens.samWrite;
});

describe("through the admin API", () => {
  it("an invite, a re-scan and an eviction each leave one entry naming the admin", async () => {
    const from = await lastId();
    const invite = await post("/api/admin/invites", { expiresInDays: 3 });
    const rescan = await post("/api/admin/scanning/rescan");
    const evicted = await post("/api/admin/mirror/evict", { all: true });

    const logged = await entries(from);
    expect(
      logged.map(({ action, actorName, actorKind, targetType, target, namespace }) => ({
        action,
        actorName,
        actorKind,
        targetType,
        target,
        namespace,
      })),
    ).toEqual(
      [
        { action: "invite.create", targetType: "invite" },
        { action: "scanning.rescan", targetType: "site" },
        { action: "mirror.evict", targetType: "site" },
      ].map((entry) => ({ ...entry, actorName: "sam", actorKind: "user", target: null, namespace: null })),
    );
    expect(logged[0]?.details).toEqual({ expiresAt: invite.expiresAt });
    // The code is the invite: whoever reads the log must not be able to sign up with it.
    expect(JSON.stringify(await hub.store.db.all("SELECT * FROM audit_log"))).not.toContain(
      String(invite.code),
    );
    expect(logged[1]?.details).toEqual(rescan);
    expect(logged[2]?.details).toEqual({
      evicted: "all",
      evictedFiles: evicted.evictedFiles,
      evictedBytes: evicted.evictedBytes,
    });
  });
});

describe("through the admin CLI", () => {
  it("an invite, a re-scan, an eviction and a blob collection leave entries as the operator's", async () => {
    const from = await lastId();
    await cli(["invites:create", "--days", "2"]);
    await cli(["scan:rescan"]);
    await cli(["mirror:evict", "--all"]);
    await cli(["blobs:gc", "--dry-run"]);
    const gc = (await cli(["blobs:gc"])) as { json: Record<string, unknown> };

    const logged = await entries(from);
    expect(logged.map((entry) => [entry.action, entry.actorKind, entry.actorName])).toEqual([
      ["invite.create", "operator", null],
      ["scanning.rescan", "operator", null],
      ["mirror.evict", "operator", null],
      ["blobs.gc", "operator", null],
    ]);
    expect(logged[1]?.details).toEqual({ requeued: expect.any(Number) });
    expect(logged[3]?.details).toEqual({
      deleted: gc.json.deleted,
      bytesFreed: gc.json.bytesFreed,
      prunedUploads: gc.json.prunedUploads,
    });
  });
});

describe("a site administration's changes to a user", () => {
  const PASSWORD = "a-new-password-for-wes-8317";

  it("leave one entry each in the user's namespace, the password only as set", async () => {
    const from = await lastId();
    const patch = async (body: unknown) => {
      const response = await fetch(`${hub.url}/api/admin/users/wes`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${samWrite}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.text()).toBe(200);
    };
    await patch({ isAdmin: true });
    await patch({ isAdmin: false });
    await patch({ password: PASSWORD });
    await cli(["users:disable", "wes"]);
    await cli(["users:enable", "wes"]);

    const logged = await entries(from);
    expect(logged.map((entry) => [entry.action, entry.actorKind, entry.namespace, entry.target])).toEqual([
      ["user.admin", "user", "wes", "wes"],
      ["user.admin", "user", "wes", "wes"],
      ["user.password", "user", "wes", "wes"],
      ["user.disable", "operator", "wes", "wes"],
      ["user.enable", "operator", "wes", "wes"],
    ]);
    expect(logged.map((entry) => entry.details)).toEqual([
      { from: false, to: true },
      { from: true, to: false },
      { password: "set" },
      {},
      {},
    ]);
    expect(JSON.stringify(await hub.store.db.all("SELECT * FROM audit_log"))).not.toContain(PASSWORD);
  });
});

describe("a change to the site settings", () => {
  it("leaves one entry telling which settings changed, from and to", async () => {
    const from = await lastId();
    const response = await fetch(`${hub.url}/api/admin/settings`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${samWrite}`, "Content-Type": "application/json" },
      body: JSON.stringify({ notice: "Maintenance at six", siteName: "Modelhub", signupPolicy: "invite" }),
    });
    expect(response.status, await response.text()).toBe(200);
    const logged = await entries(from);
    expect(logged.map((entry) => [entry.action, entry.actorName, entry.targetType])).toEqual([
      ["site.settings", "sam", "site"],
    ]);
    // The site name given is the one it had: not a change.
    expect(logged[0]?.details).toEqual({
      notice: { from: "", to: "Maintenance at six" },
      signupPolicy: { from: null, to: "invite" },
    });
  });
});

it("walked every operation the audit log knows", () => {
  // audit-log.e2e.test.ts's walk leaves these to this file.
  expect(
    AUDIT_ACTIONS.filter((action) => /^(invite|scanning|blobs|mirror|user|site)\./.test(action)).sort(),
  ).toEqual(
    [
      "blobs.gc",
      "invite.create",
      "mirror.evict",
      "scanning.rescan",
      "site.settings",
      "user.admin",
      "user.disable",
      "user.enable",
      "user.password",
    ].sort(),
  );
});
