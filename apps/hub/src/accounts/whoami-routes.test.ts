import { describe, expect, it } from "vitest";
import { seededAccountsPerTest } from "../__fixtures__/seeded-app.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

const { hub, tokens } = seededAccountsPerTest();

const whoami = (authorization?: string) =>
  hub.app.request("/api/whoami-v2", { headers: authorization ? { Authorization: authorization } : {} });

describe("GET /api/whoami-v2", () => {
  it("describes the token's user, their organizations with roles, and the token", async () => {
    const response = await whoami(`Bearer ${tokens.wesWrite}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({
      type: "user",
      name: "wes",
      fullname: "wes",
      email: "wes@example.com",
      orgs: [{ type: "org", name: "acme", fullname: "Acme Corp", roleInOrg: "write" }],
      auth: { type: "access_token", accessToken: { displayName: "wes-write", role: "write" } },
    });
    expect(body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(JSON.stringify(body)).not.toContain(tokens.wesWrite);
  });

  it("shows a fine-grained token's scopes", async () => {
    const body = (await (await whoami(`Bearer ${tokens.wesScopedToSelf}`)).json()) as Json;
    expect(body.auth.accessToken).toMatchObject({
      role: "fineGrained",
      fineGrained: {
        canReadGatedRepos: false,
        global: [],
        scoped: [{ entity: { type: "user", name: "wes" }, permissions: ["repo.write"] }],
      },
    });
  });

  it("answers 401 with the public hub's bodies without a valid token", async () => {
    const anonymous = await whoami();
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as Json).error).toBe("Invalid username or password.");
    for (const bad of [
      `Bearer ${tokens.wesRevoked}`,
      `Bearer ${tokens.wesExpired}`,
      "Bearer hf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "Bearer not-a-token",
      "Basic d2VzOnB3",
    ]) {
      const response = await whoami(bad);
      expect(response.status, bad).toBe(401);
      expect(response.headers.get("X-Error-Message")).toBe("Invalid credentials in Authorization header");
      expect(((await response.json()) as Json).error).toBe("Invalid credentials in Authorization header");
    }
  });

  it("stops accepting a disabled user's tokens", async () => {
    await hub.store.accounts.users.setDisabled((await hub.store.accounts.users.byName("wes"))!.id, true);
    expect((await whoami(`Bearer ${tokens.wesWrite}`)).status).toBe(401);
  });
});
