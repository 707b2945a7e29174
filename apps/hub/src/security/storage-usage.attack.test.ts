/**
 * Storage usage cannot be read by those it does not belong to: an owner's figures (GET /api/quotas/{owner})
 * go to the owner, its organization's members and site administrators only, and the site's list of owners
 * by storage (GET /api/admin/storage) to site administrators only: an organization admin, an outsider, a
 * fine-grained token or an anonymous caller gets a refusal that carries no figure, whatever the query says.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

async function call(path: string, token?: string) {
  const response = await fetch(`${hub.url}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, body: await response.text() };
}

beforeAll(async () => {
  ({ tokens } = await seedAccounts(hub.store));
  const auth = { Authorization: `Bearer ${tokens.adaWrite}` };
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "model", organization: "acme", name: "secret-weights", private: true }),
  });
  expect(created.status).toBe(200);
  const committed = await fetch(`${hub.url}/api/models/acme/secret-weights/commit/main`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "weights" } },
      {
        key: "file",
        value: { path: "w.bin", content: randomBytes(12_345).toString("base64"), encoding: "base64" },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(committed.status).toBe(200);
}, 60_000);

describe("storage usage: an attacker's view", () => {
  it("keeps an owner's figures from outsiders, narrow tokens and anonymous callers", async () => {
    const secret = (await call("/api/quotas/acme", tokens.samWrite)).body;
    expect(secret).toContain('"private"');
    for (const [token, status] of [
      [tokens.ottoWrite, 403],
      // A fine-grained token scoped to wes's own namespace reads wes's usage only, not acme's.
      [tokens.wesScopedToSelf, 403],
      [tokens.wesRevoked, 401],
      [undefined, 401],
    ] as const) {
      const refused = await call("/api/quotas/acme", token);
      expect(refused.status).toBe(status);
      expect(refused.body).not.toMatch(/"used"|"pending"|"quota"/);
    }
    // A member of acme cannot read another member's own usage.
    expect((await call("/api/quotas/otto", tokens.adaWrite)).status).toBe(403);
    // Path tricks name no one else: a different case is the same owner, an encoded slash no owner.
    expect((await call("/api/quotas/ACME", tokens.ottoWrite)).status).toBe(403);
    expect([403, 404]).toContain((await call("/api/quotas/acme%2Fsecret-weights", tokens.ottoWrite)).status);
  });

  it("lists owners by storage to site administrators only, before reading the query", async () => {
    const listed = await call("/api/admin/storage", tokens.samWrite);
    expect(listed.status).toBe(200);
    expect(listed.body).toContain("acme");
    for (const query of ["", "?limit=10", "?limit=0", "?limit=abc", "?limit=100000"]) {
      for (const [token, status] of [
        [tokens.adaWrite, 403],
        [tokens.ottoWrite, 403],
        [tokens.wesScopedToSelf, 403],
        [tokens.wesExpired, 401],
        [undefined, 401],
      ] as const) {
        const refused = await call(`/api/admin/storage${query}`, token);
        expect([query, refused.status]).toEqual([query, status]);
        expect(refused.body).not.toContain("acme");
        expect(refused.body).not.toMatch(/"used"|"owners"/);
      }
    }
  });
});
