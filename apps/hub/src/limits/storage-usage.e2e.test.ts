/**
 * Storage usage as shown in settings and the admin pages (GET /api/quotas/{owner}, GET /api/admin/storage):
 * bytes of distinct content per owner, private and public apart, the quota of each, and the site's owners
 * using the most storage, most first.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { StorageUsageView } from "../api/types.js";
import { parseStorageQuotas } from "./storage-quotas.js";

const hub = useTestHub({
  storageQuotas: parseStorageQuotas(
    JSON.stringify({ user: { private: 50_000 }, organization: { public: 90_000 } }),
  ),
});
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${hub.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
  });

async function createWithFile(token: string, repo: string, isPrivate: boolean, content: Buffer) {
  const created = await api("/api/repos/create", token, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "model", name: repo, private: isPrivate }),
  });
  expect(created.status).toBe(200);
  const committed = await api(`/api/models/${repo}/commit/main`, token, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "weights" } },
      {
        key: "file",
        value: { path: "weights.bin", content: content.toString("base64"), encoding: "base64" },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(committed.status).toBe(200);
}

beforeAll(async () => {
  ({ tokens } = await seedAccounts(hub.store));
  const shared = randomBytes(20_000);
  // acme: the same content in two public repositories (counted once) and 30,000 bytes private.
  await createWithFile(tokens.adaWrite, "acme/open-a", false, shared);
  await createWithFile(tokens.adaWrite, "acme/open-b", false, shared);
  await createWithFile(tokens.adaWrite, "acme/closed", true, randomBytes(30_000));
  // otto: 5,000 bytes private.
  await createWithFile(tokens.ottoWrite, "otto/small", true, randomBytes(5_000));
}, 60_000);

describe("storage usage", () => {
  it("shows an owner's bytes per visibility, each content once, with its quotas", async () => {
    const response = await api("/api/quotas/acme", tokens.raeRead);
    expect(response.status).toBe(200);
    const usage = (await response.json()) as StorageUsageView;
    expect(usage.owner).toBe("acme");
    expect(usage.type).toBe("org");
    // Each new repository holds a small .gitattributes besides the file.
    expect(usage.public.used).toBeGreaterThanOrEqual(20_000);
    expect(usage.public.used).toBeLessThan(40_000);
    expect(usage.private.used).toBeGreaterThanOrEqual(30_000);
    expect(usage.private.used).toBeLessThan(35_000);
    expect(usage.public.quota).toBe(90_000);
    expect(usage.private.quota).toBeNull();
    expect(usage.private.pending).toBe(0);
  });

  it("lists the owners using the most storage to a site administrator, most first", async () => {
    const response = await api("/api/admin/storage?limit=200", tokens.samWrite);
    expect(response.status).toBe(200);
    const { owners } = (await response.json()) as { owners: StorageUsageView[] };
    const total = (owner: StorageUsageView) => owner.private.used + owner.public.used;
    // The fixture catalogue's demo repositories (owned by no account) are listed too.
    const names = owners.map((owner) => owner.owner);
    expect(names.filter((name) => name === "acme" || name === "otto")).toEqual(["acme", "otto"]);
    expect(owners.map(total)).toEqual([...owners.map(total)].sort((a, b) => b - a));
    const acme = owners.find((owner) => owner.owner === "acme");
    const otto = owners.find((owner) => owner.owner === "otto");
    // The same figures as the owner's own view, and each kind's quota.
    expect(acme).toEqual((await (await api("/api/quotas/acme", tokens.samWrite)).json()) as StorageUsageView);
    expect(otto!.type).toBe("user");
    expect(otto!.private.used).toBeGreaterThanOrEqual(5_000);
    expect(otto!.private.quota).toBe(50_000);
    // A limit bounds the list; a wrong one is named.
    const one = (await (await api("/api/admin/storage?limit=1", tokens.samWrite)).json()) as {
      owners: StorageUsageView[];
    };
    expect(one.owners).toEqual([owners[0]]);
    const wrong = await api("/api/admin/storage?limit=0", tokens.samWrite);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("limit");
  });
});
