import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";
import { createApp } from "../app.js";
import { createMemoryLogger } from "../logger.js";
import { accountsService } from "./accounts-service.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

const PASSWORD = "correct horse battery staple";
let hub: SeededApp;
let logger: ReturnType<typeof createMemoryLogger>;
beforeEach(async () => {
  logger = createMemoryLogger();
  hub = await seededApp({ logger });
  await accountsService(hub.store.accounts).createUser({
    name: "wes",
    email: "wes@example.com",
    password: PASSWORD,
  });
});
afterEach(() => hub.cleanup());

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function signIn(name = "wes", password = PASSWORD) {
  const response = await hub.app.request("/api/auth/signin", json({ name, password }));
  const body = (await response.json()) as Json;
  const cookie = response.headers.get("Set-Cookie") ?? "";
  return { response, body, cookie, session: cookie.split(";")[0]! };
}

describe("web sessions", () => {
  it("signs in with an HttpOnly SameSite=Lax cookie that authenticates the next requests", async () => {
    const { response, body, cookie, session } = await signIn();
    expect(response.status).toBe(200);
    expect(cookie).toMatch(/^modelhub_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(body).toMatchObject({ name: "wes", csrfToken: expect.any(String) });
    const me = await hub.app.request("/api/whoami-v2", { headers: { Cookie: session } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as Json).name).toBe("wes");
    // By email too.
    expect((await signIn("wes@example.com")).response.status).toBe(200);
  });

  it("marks the cookie Secure behind an https public URL", async () => {
    const app = createApp({ store: hub.store, publicUrl: "https://hub.example.com" });
    const response = await app.request("/api/auth/signin", json({ name: "wes", password: PASSWORD }));
    expect(response.headers.get("Set-Cookie")).toContain("; Secure");
  });

  it("refuses a state-changing cookie request without the CSRF token, accepts it with", async () => {
    const { body, session } = await signIn();
    const bare = await hub.app.request("/api/auth/signout", json({}, { Cookie: session }));
    expect(bare.status).toBe(403);
    const wrong = await hub.app.request(
      "/api/auth/signout",
      json({}, { Cookie: session, "X-CSRF-Token": "nope" }),
    );
    expect(wrong.status).toBe(403);
    // Still signed in: the refused requests changed nothing.
    expect((await hub.app.request("/api/whoami-v2", { headers: { Cookie: session } })).status).toBe(200);
    const ok = await hub.app.request(
      "/api/auth/signout",
      json({}, { Cookie: session, "X-CSRF-Token": body.csrfToken }),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Set-Cookie")).toContain("Max-Age=0");
  });

  it("revocation takes effect on the very next request", async () => {
    const { body, session } = await signIn();
    await hub.app.request("/api/auth/signout", json({}, { Cookie: session, "X-CSRF-Token": body.csrfToken }));
    expect((await hub.app.request("/api/whoami-v2", { headers: { Cookie: session } })).status).toBe(401);
    // A password change signs out every other session too.
    const again = await signIn();
    await accountsService(hub.store.accounts).setPassword("wes", "another long password");
    expect((await hub.app.request("/api/whoami-v2", { headers: { Cookie: again.session } })).status).toBe(
      401,
    );
  });

  it("answers every failed sign-in alike and rate-limits a bounded brute-force loop", async () => {
    const unknown = await signIn("nobody", "whatever password");
    const wrong = await signIn("wes", "wrong password!!");
    for (const failed of [unknown, wrong]) {
      expect(failed.response.status).toBe(401);
      expect(failed.body.error).toBe("Invalid username or password.");
      expect(failed.cookie).toBe("");
    }
    // 4 more wrong passwords reach the limit of 5; the sixth attempt is refused even with the right one.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++)
      statuses.push((await signIn("wes", `guess-${attempt}`)).response.status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    expect((await signIn("wes", PASSWORD)).response.status).toBe(429);
    // Unknown names are limited the same way (no enumeration through the limiter).
    for (let attempt = 0; attempt < 4; attempt++) await signIn("nobody", "x".repeat(10));
    expect((await signIn("nobody", "x".repeat(10))).response.status).toBe(429);
  }, 60_000);

  it("follows the sign-up policy", async () => {
    const closed = await hub.app.request("/api/auth/signup", json({ name: "newbie", password: PASSWORD }));
    expect(closed.status).toBe(403);
    const open = createApp({ store: hub.store, signupPolicy: "open" });
    const created = await open.request("/api/auth/signup", json({ name: "newbie", password: PASSWORD }));
    expect(created.status).toBe(201);
    const invite = createApp({ store: hub.store, signupPolicy: "invite" });
    expect(
      (await invite.request("/api/auth/signup", json({ name: "other", password: PASSWORD }))).status,
    ).toBe(403);
    expect(
      (
        await invite.request(
          "/api/auth/signup",
          json({ name: "other", password: PASSWORD, invite: "forged" }),
        )
      ).status,
    ).toBe(400);
  });

  it("never writes a password, a session id or a CSRF token to the log", async () => {
    const { body, session } = await signIn();
    await signIn("wes", "a wrong password");
    await hub.app.request("/api/auth/signout", json({}, { Cookie: session, "X-CSRF-Token": body.csrfToken }));
    const log = logger.lines.join("\n");
    expect(log).toContain("/api/auth/signin");
    for (const secret of [PASSWORD, "a wrong password", session.split("=")[1]!, body.csrfToken]) {
      expect(log).not.toContain(secret);
    }
  });

  it("manages the user's own tokens from the session: shown once, revoked at once", async () => {
    const { body, session } = await signIn();
    const headers = { Cookie: session, "X-CSRF-Token": body.csrfToken };
    const created = await hub.app.request(
      "/api/settings/tokens",
      json({ name: "laptop", role: "write" }, headers),
    );
    expect(created.status).toBe(201);
    const issued = (await created.json()) as Json;
    expect(issued.token).toMatch(/^hf_/);
    const listed = await hub.app.request("/api/settings/tokens", { headers: { Cookie: session } });
    expect(JSON.stringify(await listed.json())).not.toContain(issued.token);
    const bearer = { Authorization: `Bearer ${issued.token}` };
    expect((await hub.app.request("/api/whoami-v2", { headers: bearer })).status).toBe(200);
    // Without the CSRF token nothing is revoked.
    expect(
      (
        await hub.app.request(`/api/settings/tokens/${issued.id}`, {
          method: "DELETE",
          headers: { Cookie: session },
        })
      ).status,
    ).toBe(403);
    const revoked = await hub.app.request(`/api/settings/tokens/${issued.id}`, { method: "DELETE", headers });
    expect(revoked.status).toBe(200);
    expect((await hub.app.request("/api/whoami-v2", { headers: bearer })).status).toBe(401);
    // Another user's token id is "not found"; anonymous callers are refused.
    expect((await hub.app.request("/api/settings/tokens")).status).toBe(401);
  });
});
