import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, adminHeaders, requestJson, seededAccountsPerTest } from "../__fixtures__/seeded-app.js";
import { createApp } from "../app.js";
import { accountsService } from "./accounts-service.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

const { hub, tokens } = seededAccountsPerTest();

const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  requestJson(hub.app, method, path, token, body);

const members = async (org: string) =>
  Object.fromEntries(
    ((await call("GET", `/api/organizations/${org}`, undefined)).body.members as Json[]).map((m) => [
      m.name,
      m.role,
    ]),
  );

describe("organizations API", () => {
  it("creates an organization with its creator as admin; read tokens and anonymous callers cannot", async () => {
    expect((await call("POST", "/api/organizations", undefined, { name: "newco" })).status).toBe(401);
    expect((await call("POST", "/api/organizations", tokens.wesRead, { name: "newco" })).status).toBe(403);
    const created = await call("POST", "/api/organizations", tokens.wesWrite, {
      name: "newco",
      fullname: "New Co",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "newco",
      fullname: "New Co",
      members: [{ name: "wes", role: "admin" }],
    });
    expect((await call("POST", "/api/organizations", tokens.ottoWrite, { name: "NEWCO" })).status).toBe(409);
    // Members are public, their email is not.
    expect(JSON.stringify((await call("GET", "/api/organizations/acme", undefined)).body)).not.toContain("@");
  });

  it("lets org admins change roles and remove members, refuses everyone else, keeps the last admin", async () => {
    expect(
      (await call("PUT", "/api/organizations/acme/members/otto", tokens.wesWrite, { role: "read" })).status,
    ).toBe(403);
    expect(
      (await call("PUT", "/api/organizations/acme/members/otto", tokens.ottoWrite, { role: "admin" })).status,
    ).toBe(403);
    expect(
      (await call("PUT", "/api/organizations/acme/members/otto", tokens.adaWrite, { role: "owner" })).status,
    ).toBe(400);
    expect(
      (await call("PUT", "/api/organizations/acme/members/otto", tokens.adaWrite, { role: "read" })).status,
    ).toBe(200);
    expect((await call("DELETE", "/api/organizations/acme/members/rae", tokens.wesWrite)).status).toBe(403);
    expect((await call("DELETE", "/api/organizations/acme/members/rae", tokens.adaWrite)).status).toBe(200);
    const lastAdmin = await call("DELETE", "/api/organizations/acme/members/ada", tokens.adaWrite);
    expect(lastAdmin.status).toBe(400);
    expect(lastAdmin.body.error).toMatch(/last admin/);
    expect(await members("acme")).toEqual({ ada: "admin", wes: "write", otto: "read" });
  });

  it("lets a member leave with a write credential, and a refusal changes nothing", async () => {
    expect((await call("DELETE", "/api/organizations/acme/members/wes", tokens.wesRead)).status).toBe(403);
    expect((await call("DELETE", "/api/organizations/acme/members/wes", tokens.wesWrite)).status).toBe(200);
    expect(await members("acme")).toEqual({ ada: "admin", rae: "read" });
  });

  it("invites by a single-use link: the invited user joins with its role", async () => {
    expect(
      (await call("POST", "/api/organizations/acme/invites", tokens.wesWrite, { role: "write" })).status,
    ).toBe(403);
    const invite = await call("POST", "/api/organizations/acme/invites", tokens.adaWrite, { role: "write" });
    expect(invite.status).toBe(201);
    expect(invite.body.url).toBe(`http://hub.test/organizations/invites/${invite.body.code}`);
    const code = invite.body.code as string;
    expect((await call("GET", `/api/organizations/invites/${code}`, undefined)).body).toMatchObject({
      org: "acme",
      role: "write",
    });
    expect((await call("POST", `/api/organizations/invites/${code}/accept`, undefined)).status).toBe(401);
    expect((await call("POST", `/api/organizations/invites/${code}/accept`, tokens.ottoWrite)).body).toEqual({
      org: "acme",
      role: "write",
    });
    expect((await members("acme")).otto).toBe("write");
    // Single use: a second person gets the invalid-link answer.
    const again = await call("POST", `/api/organizations/invites/${code}/accept`, tokens.samWrite);
    expect(again.status).toBe(404);
    expect((await call("GET", `/api/organizations/invites/${code}`, undefined)).status).toBe(404);
    expect((await call("GET", "/api/organizations/invites/not-a-code", undefined)).status).toBe(404);
    // The whoami of the new member lists the organization at once.
    const whoami = await call("GET", "/api/whoami-v2", tokens.ottoWrite);
    expect(whoami.body.orgs).toEqual([expect.objectContaining({ name: "acme", roleInOrg: "write" })]);
  });
});

describe("sign-up invites, admin users and orgs", () => {
  it("makes a single-use sign-up link the invite policy accepts", async () => {
    const app = createApp({
      store: hub.store,
      publicUrl: "http://hub.test",
      adminToken: ADMIN_TOKEN,
      signupPolicy: "invite",
    });
    const made = await app.request("/api/admin/invites", {
      method: "POST",
      headers: adminHeaders(),
      body: "{}",
    });
    expect(made.status).toBe(201);
    const invite = (await made.json()) as Json;
    expect(invite.url).toBe(`http://hub.test/join?invite=${invite.code}`);
    const signUp = (name: string, code: string) =>
      app.request("/api/auth/signup", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, password: "long enough password", invite: code }),
      });
    expect((await signUp("newbie", "wrong-code")).status).toBe(400);
    expect((await signUp("newbie", invite.code)).status).toBe(201);
    expect((await signUp("another", invite.code)).status).toBe(400);
    expect(((await (await app.request("/api/auth/options")).json()) as Json).signupPolicy).toBe("invite");
  });

  it("lists, creates and changes users; a non-admin is refused", async () => {
    expect((await call("GET", "/api/admin/users", tokens.wesWrite)).status).toBe(403);
    const list = await call("GET", "/api/admin/users", tokens.samWrite);
    expect(list.body.map((u: Json) => u.name)).toContain("otto");
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt/);
    expect(
      (await call("POST", "/api/admin/users", ADMIN_TOKEN, { name: "zed", password: "long enough pw" }))
        .status,
    ).toBe(201);
    const disabled = await call("PATCH", "/api/admin/users/otto", ADMIN_TOKEN, { disabled: true });
    expect(disabled.body).toMatchObject({ name: "otto", disabled: true });
    expect((await call("GET", "/api/whoami-v2", tokens.ottoWrite)).status).toBe(401);
    expect((await call("PATCH", "/api/admin/users/otto", ADMIN_TOKEN, { banned: true })).status).toBe(400);
    expect((await call("PATCH", "/api/admin/users/zed", ADMIN_TOKEN, { isAdmin: true })).body.isAdmin).toBe(
      true,
    );
    const orgs = await call("GET", "/api/admin/orgs", tokens.samWrite);
    expect(orgs.body).toEqual([expect.objectContaining({ name: "acme", members: 3 })]);
    expect(
      (await call("POST", "/api/admin/orgs", ADMIN_TOKEN, { name: "initech", owner: "zed" })).status,
    ).toBe(201);
  });
});

describe("usage per user and per organization", () => {
  it("reads the router calls of a user, of an org (its admins only) and per account (site admins)", async () => {
    const service = accountsService(hub.store.accounts);
    const wes = await service.user("wes");
    const acme = await service.org("acme");
    const token = (await hub.store.accounts.tokens.list(wes.id))[0]!;
    const record = (billToId: number | null, status: number) =>
      hub.store.usage.record({
        tokenId: token.id,
        userId: wes.id,
        billToId,
        provider: "together",
        model: "meta-llama/Llama-3.1-8B-Instruct",
        status,
        requestBytes: 10,
        responseBytes: 20,
        durationMs: 5,
      });
    record(null, 200);
    record(acme.id, 200);
    record(acme.id, 500);
    const mine = await call("GET", "/api/settings/usage", tokens.wesRead);
    expect(mine.body.usage).toEqual([
      expect.objectContaining({ provider: "together", requests: 3, errors: 1, requestBytes: 30 }),
    ]);
    expect((await call("GET", "/api/organizations/acme/usage", tokens.wesWrite)).status).toBe(403);
    const org = await call("GET", "/api/organizations/acme/usage", tokens.adaWrite);
    expect(org.body.usage).toEqual([expect.objectContaining({ requests: 2, errors: 1 })]);
    const byUser = await call("GET", "/api/admin/usage?by=user", tokens.samWrite);
    expect(byUser.body.usage).toEqual([expect.objectContaining({ user: "wes", requests: 3 })]);
    const byOrg = await call("GET", "/api/admin/usage?by=org", ADMIN_TOKEN);
    expect(byOrg.body.usage).toEqual([expect.objectContaining({ org: "acme", requests: 2 })]);
    const future = await call(
      "GET",
      `/api/settings/usage?since=${new Date(Date.now() + 60_000).toISOString()}`,
      tokens.wesRead,
    );
    expect(future.body.usage).toEqual([]);
  });
});

describe("settings: profile and password", () => {
  it("changes the profile; a password change needs the current one", async () => {
    await accountsService(hub.store.accounts).setPassword("wes", "first password 1");
    const changed = await call("PATCH", "/api/settings/profile", tokens.wesWrite, {
      fullname: "Wes W",
      email: "w@example.org",
    });
    expect(changed.body).toMatchObject({ name: "wes", fullname: "Wes W", email: "w@example.org" });
    expect((await call("PATCH", "/api/settings/profile", tokens.wesRead, { fullname: "X" })).status).toBe(
      403,
    );
    expect(
      (await call("PATCH", "/api/settings/profile", tokens.wesWrite, { email: "not-an-email" })).status,
    ).toBe(400);
    const wrong = await call("PUT", "/api/settings/password", tokens.wesWrite, {
      currentPassword: "nope",
      newPassword: "second password 2",
    });
    expect(wrong.status).toBe(403);
    const right = await call("PUT", "/api/settings/password", tokens.wesWrite, {
      currentPassword: "first password 1",
      newPassword: "second password 2",
    });
    expect(right.status).toBe(200);
    const signIn = await hub.app.request("/api/auth/signin", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "wes", password: "second password 2" }),
    });
    expect(signIn.status).toBe(200);
  });
});
