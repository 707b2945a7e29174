import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { AuditAction } from "./audit-log.js";
import type { AuditEntry } from "./audit-table.js";

/**
 * The audit log end to end on a real hub: every audited action, done once through the API, leaves exactly one
 * entry naming who, what, which and from where; an organization's admin reads only that organization's
 * entries (and an outsider none); the site's log and its JSON Lines export are the site admins'.
 */
const hub = useTestHub();
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

const api = (path: string, token: string | undefined, init: RequestInit = {}) =>
  fetch(`${hub.url}${path}`, {
    ...init,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      "Content-Type": "application/json",
      "User-Agent": "audit-walk/1.0",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
async function ok(response: Promise<Response>, status = 200): Promise<Response> {
  const answered = await response;
  if (answered.status !== status)
    throw new Error(`${answered.url}: ${answered.status} ${await answered.text()}`);
  return answered;
}
const ndjson = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n");

beforeAll(async () => {
  ({ tokens } = await seedAccounts(hub.store));
  // otto has an organization of his own, with one entry the acme admin must never see.
  const otto = await api("/api/organizations", tokens.ottoWrite, {
    method: "POST",
    body: JSON.stringify({ name: "ottocorp" }),
  });
  expect(otto.status).toBeLessThan(300);
  await ok(
    api("/api/repos/create", tokens.ottoWrite, {
      method: "POST",
      body: JSON.stringify({ name: "ottocorp/secret" }),
    }),
  );
});

async function siteLog(query = ""): Promise<AuditEntry[]> {
  const response = await ok(api(`/api/admin/audit-log?limit=1000${query}`, tokens.samWrite));
  return ((await response.json()) as { entries: AuditEntry[] }).entries;
}

describe("the audit log", () => {
  let walkedFrom = 0;
  const walked: { action: AuditAction; target: string | null }[] = [];

  it("every audited action leaves exactly one entry", async () => {
    walkedFrom = (await siteLog())[0]?.id ?? 0;
    const repo = "/api/models/acme/walk";
    const step = async (action: AuditAction, target: string | null, done: () => Promise<unknown>) => {
      await done();
      walked.push({ action, target });
    };
    const target = "model/acme/walk";
    await step("repo.create", target, () =>
      ok(
        api("/api/repos/create", tokens.adaWrite, {
          method: "POST",
          body: JSON.stringify({ name: "acme/walk" }),
        }),
      ),
    );
    await step("repo.visibility", target, () =>
      ok(
        api(`${repo}/settings`, tokens.adaWrite, { method: "PUT", body: JSON.stringify({ private: true }) }),
      ),
    );
    await step("repo.gating", target, () =>
      ok(
        api(`${repo}/settings`, tokens.adaWrite, {
          method: "PUT",
          body: JSON.stringify({ gated: "manual" }),
        }),
      ),
    );
    await step("repo.access-decision", target, () =>
      ok(
        api(`${repo}/user-access-request/grant`, tokens.adaWrite, {
          method: "POST",
          body: JSON.stringify({ user: "rae" }),
        }),
      ),
    );
    await step("branch.create", target, () =>
      ok(api(`${repo}/branch/dev`, tokens.adaWrite, { method: "POST" })),
    );
    await step("branch.delete", target, () =>
      ok(api(`${repo}/branch/dev`, tokens.adaWrite, { method: "DELETE" })),
    );
    await step("tag.create", target, () =>
      ok(api(`${repo}/tag/main`, tokens.adaWrite, { method: "POST", body: JSON.stringify({ tag: "v1" }) })),
    );
    await step("tag.delete", target, () => ok(api(`${repo}/tag/v1`, tokens.adaWrite, { method: "DELETE" })));
    // An LFS object uploaded and committed, then permanently deleted.
    const weights = randomBytes(64);
    const oid = createHash("sha256").update(weights).digest("hex");
    const batch = await ok(
      api("/acme/walk.git/info/lfs/objects/batch", tokens.adaWrite, {
        method: "POST",
        headers: { "Content-Type": "application/vnd.git-lfs+json" },
        body: JSON.stringify({ operation: "upload", transfers: ["basic"], objects: [{ oid, size: 64 }] }),
      }),
    );
    const [object] = ((await batch.json()) as { objects: { actions?: { upload?: { href: string } } }[] })
      .objects;
    if (object?.actions?.upload)
      await ok(fetch(object.actions.upload.href, { method: "PUT", body: weights }));
    await ok(
      api(`${repo}/commit/main`, tokens.adaWrite, {
        method: "POST",
        headers: { "Content-Type": "application/x-ndjson" },
        body: ndjson(
          { key: "header", value: { summary: "weights" } },
          { key: "lfsFile", value: { path: "w.bin", algo: "sha256", oid, size: 64 } },
        ),
      }),
    );
    await step("lfs.delete", target, () =>
      ok(
        api(`${repo}/lfs-files/batch`, tokens.adaWrite, {
          method: "POST",
          body: JSON.stringify({ deletions: { sha: [oid] } }),
        }),
      ),
    );
    // A pull request (not audited: a discussion), then its merge (audited).
    const opened = await ok(
      api(`${repo}/commit/main?create_pr=1`, tokens.adaWrite, {
        method: "POST",
        headers: { "Content-Type": "application/x-ndjson" },
        body: ndjson(
          { key: "header", value: { summary: "a change" } },
          {
            key: "file",
            value: { path: "a.txt", content: Buffer.from("a").toString("base64"), encoding: "base64" },
          },
        ),
      }),
    );
    const { pullRequestUrl } = (await opened.json()) as { pullRequestUrl: string };
    const num = pullRequestUrl.split("/").pop();
    await step("repo.merge", target, () =>
      ok(api(`${repo}/discussions/${num}/merge`, tokens.adaWrite, { method: "POST", body: "{}" })),
    );
    await step("repo.move", "model/acme/walked", () =>
      ok(
        api("/api/repos/move", tokens.adaWrite, {
          method: "POST",
          body: JSON.stringify({ fromRepo: "acme/walk", toRepo: "acme/walked", type: "model" }),
        }),
      ),
    );
    await step("repo.delete", "model/acme/walked", () =>
      ok(
        api("/api/repos/delete", tokens.adaWrite, {
          method: "DELETE",
          body: JSON.stringify({ name: "walked", organization: "acme", type: "model" }),
        }),
      ),
    );
    let tokenId = 0;
    await step("token.create", "walk-token", async () => {
      const issued = await ok(
        api("/api/settings/tokens", tokens.adaWrite, {
          method: "POST",
          body: JSON.stringify({ name: "walk-token", role: "read" }),
        }),
        201,
      );
      tokenId = ((await issued.json()) as { id: number }).id;
    });
    await step("token.revoke", "walk-token", () =>
      ok(api(`/api/settings/tokens/${tokenId}`, tokens.adaWrite, { method: "DELETE" })),
    );
    await step("member.role", "rae", () =>
      ok(
        api("/api/organizations/acme/members/rae", tokens.adaWrite, {
          method: "PUT",
          body: JSON.stringify({ role: "write" }),
        }),
      ),
    );
    await step("member.remove", "rae", () =>
      ok(api("/api/organizations/acme/members/rae", tokens.adaWrite, { method: "DELETE" })),
    );
    const { service } = await seedAccountsPassword();
    await step("signin.failure", "ada", () =>
      ok(
        api("/api/auth/signin", undefined, {
          method: "POST",
          body: JSON.stringify({ name: "ada", password: "wrong-password-1" }),
        }),
        401,
      ),
    );
    await step("signin.success", "ada", () =>
      ok(
        api("/api/auth/signin", undefined, {
          method: "POST",
          body: JSON.stringify({ name: "ada", password: service }),
        }),
      ),
    );

    const entries = (await siteLog()).filter((entry) => entry.id > walkedFrom).reverse();
    expect(entries.map(({ action, target }) => ({ action, target }))).toEqual(walked);
    // Who, from where, with what: the token's owner, the loopback address, the client.
    const created = entries[0]!;
    expect(created).toMatchObject({
      namespace: "acme",
      actorKind: "user",
      actorName: "ada",
      ip: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(created.userAgent).toBe("audit-walk/1.0");
    expect(created.tokenId).toBeGreaterThan(0);
    expect(entries.find((e) => e.action === "repo.visibility")!.details).toEqual({ private: true });
    expect(entries.find((e) => e.action === "member.role")!.details).toEqual({ from: "read", to: "write" });
    const failure = entries.find((e) => e.action === "signin.failure")!;
    expect(failure).toMatchObject({ actorKind: "anonymous", actorName: "ada" });
    expect(JSON.stringify(failure)).not.toContain("wrong-password-1");
    // Every action the log knows was walked (the inference providers' in router/provider-audit.e2e.test.ts,
    // the catalogue's in admin/catalogue-audit.e2e.test.ts, the site's operations in
    // admin/operations-audit.e2e.test.ts).
    const { AUDIT_ACTIONS } = await import("./audit-log.js");
    const walkedElsewhere = /^((local-)?provider|model|catalogue|invite|scanning|blobs|mirror|user|site)\./;
    expect(new Set(walked.map((w) => w.action))).toEqual(
      new Set(AUDIT_ACTIONS.filter((a) => a !== "repo.settings" && !walkedElsewhere.test(a))),
    );
  });

  it("an organization's admin reads only that organization's entries; others are refused", async () => {
    const acme = await ok(api("/api/organizations/acme/audit-log?limit=1000", tokens.adaWrite));
    const { entries } = (await acme.json()) as { entries: AuditEntry[] };
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.namespace === "acme")).toBe(true);
    expect(entries.some((entry) => entry.target?.includes("ottocorp"))).toBe(false);
    // ada is no admin of ottocorp; a writer and an outsider are no admins of acme; nor is anyone anonymous.
    expect((await api("/api/organizations/ottocorp/audit-log", tokens.adaWrite)).status).toBe(403);
    expect((await api("/api/organizations/acme/audit-log", tokens.wesWrite)).status).toBe(403);
    expect((await api("/api/organizations/acme/audit-log", tokens.ottoWrite)).status).toBe(403);
    expect((await api("/api/organizations/acme/audit-log/export", tokens.ottoWrite)).status).toBe(403);
    expect((await api("/api/organizations/acme/audit-log", undefined)).status).toBe(401);
    // The site's log is the site admins'.
    expect((await api("/api/admin/audit-log", tokens.adaWrite)).status).toBe(403);
    expect((await api("/api/admin/audit-log/export", tokens.adaWrite)).status).toBe(403);
  });

  it("filters, pages and exports as JSON Lines", async () => {
    const filtered = await ok(api("/api/organizations/acme/audit-log?action=branch.create", tokens.adaWrite));
    const { entries } = (await filtered.json()) as { entries: AuditEntry[] };
    expect(entries.map((entry) => entry.action)).toEqual(["branch.create"]);
    const first = (await (
      await ok(api("/api/organizations/acme/audit-log?limit=2", tokens.adaWrite))
    ).json()) as {
      entries: AuditEntry[];
      next: number;
    };
    expect(first.entries).toHaveLength(2);
    const second = (await (
      await ok(api(`/api/organizations/acme/audit-log?limit=2&before=${first.next}`, tokens.adaWrite))
    ).json()) as { entries: AuditEntry[] };
    expect(second.entries[0]!.id).toBeLessThan(first.entries[1]!.id);
    expect((await api("/api/organizations/acme/audit-log?action=nope", tokens.adaWrite)).status).toBe(400);

    const exported = await ok(api("/api/organizations/acme/audit-log/export", tokens.adaWrite));
    expect(exported.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditEntry);
    const all = (await (
      await ok(api("/api/organizations/acme/audit-log?limit=1000", tokens.adaWrite))
    ).json()) as {
      entries: AuditEntry[];
    };
    expect(lines).toEqual(all.entries);
    const site = await ok(api("/api/admin/audit-log/export", tokens.samWrite));
    expect((await site.text()).includes('"namespace":"ottocorp"')).toBe(true);
  });
});

/** ada gets a password to sign in with (returned: the only place it exists). */
async function seedAccountsPassword(): Promise<{ service: string }> {
  const password = "correct horse battery staple 42";
  const { accountsService } = await import("../accounts/accounts-service.js");
  await accountsService(hub.store.accounts).setPassword("ada", password);
  return { service: password };
}

afterAll(() => {});
