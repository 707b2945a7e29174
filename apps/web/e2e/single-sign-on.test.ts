import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider) on 127.0.0.1, through the sign-in
 * page in Chromium: the first sign-in creates the account as the sign-up policy allows (open: always;
 * invite: with an invite link, used once; closed: never, while a verified email still links an existing
 * account), and the hub refuses an answer whose state or nonce is not the one it sent.
 */
const CLIENT_ID = "modelhub";
const ADMIN_TOKEN = "sso-test-operator-token-0123456789";
const CLIENT_SECRET = "a-client-secret-long-enough-for-hs256";
const PEOPLE: Record<string, Record<string, unknown>> = {
  grace: {
    email: "grace@example.com",
    email_verified: true,
    name: "Grace Hopper",
    preferred_username: "grace",
  },
  // Has a password account already, with the same verified email: SSO signs in to it.
  linus: {
    email: "linus@example.com",
    email_verified: true,
    name: "Linus T",
    preferred_username: "linus-sso",
  },
  hedy: { email: "hedy@example.com", email_verified: true, name: "Hedy Lamarr", preferred_username: "hedy" },
  alan: { email: "alan@example.com", email_verified: true, name: "Alan Turing", preferred_username: "alan" },
};

let harness: WebHarness;
let issuerServer: Server;
let issuer: string;

beforeAll(async () => {
  // The provider needs the hub's callback URL and the hub the provider's URL: listen first, then build both.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  issuerServer = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => issuerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  harness = await startWebHarness({
    oidc: { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    adminToken: ADMIN_TOKEN,
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${harness.hub.url}/api/auth/oidc/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(PEOPLE[sub] ?? {}) }),
    }),
    pkce: { required: () => true },
    cookies: { keys: ["test-cookie-key"] },
  });
  handler = provider.callback();
  const response = await fetch(`${harness.hub.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(403); // SIGNUP_POLICY is closed by default; tests change it at run time.
});
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => issuerServer?.close(resolve));
});

/** Sets the sign-up policy as a site admin does (site settings), for what follows. */
async function setSignupPolicy(policy: "open" | "invite" | "closed") {
  const response = await fetch(`${harness.hub.url}/api/admin/settings`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ signupPolicy: policy }),
  });
  expect(response.status).toBe(200);
}

const userNamed = async (name: string) => harness.hub.store.accounts.users.byName(name);
const sessionOf = (page: Page) => page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));

/** Through the provider's login and consent pages after the hub sent the browser there. */
async function atProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/** Signs in through the provider's own login and consent pages, as `login`. */
async function signInWithSso(page: Page, login: string, next = "/settings/profile") {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
  await atProvider(page, login);
}

/** The hub turned `login` away: back on the sign-in page with a failure, signed out, and no account made. */
async function expectTurnedAway(page: Page, login: string) {
  await page.waitForURL(`${harness.hub.url}/login?sso=failed`);
  expect(await sessionOf(page)).toEqual({ signedIn: false });
  expect(await userNamed(login)).toBeUndefined();
  await page.context().close();
}

describe("single sign-on through OpenID Connect", () => {
  it("creates the account on the first sign-in and opens a session (open sign-up)", async () => {
    await setSignupPolicy("open");
    const page = await harness.newPage();
    await signInWithSso(page, "grace");
    await page.waitForURL(`${harness.hub.url}/settings/profile`);
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("grace@example.com");
    await expect.poll(() => page.getByLabel("Full name").inputValue()).toBe("Grace Hopper");
    const session = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
    expect(session).toMatchObject({ signedIn: true, name: "grace" });
    // A second sign-in finds the same account (linked by issuer and subject), not a new one.
    await page.context().clearCookies();
    await signInWithSso(page, "grace", "/settings/tokens");
    await page.waitForURL(`${harness.hub.url}/settings/tokens`);
    const users = harness.hub.store.accounts.users.list();
    expect((await users).filter((u) => u.name.startsWith("grace"))).toHaveLength(1);
    await page.context().close();
  });

  it("links an existing account with the same verified email, even with sign-up closed", async () => {
    await setSignupPolicy("closed");
    await harness.hub.store.accounts.users.create({
      name: "linus",
      fullname: "Linus",
      email: "linus@example.com",
      passwordHash: null,
      isAdmin: false,
    });
    const page = await harness.newPage();
    await signInWithSso(page, "linus");
    await page.waitForURL(`${harness.hub.url}/settings/profile`);
    const session = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
    expect(session).toMatchObject({ signedIn: true, name: "linus" });
    await page.context().close();
  });

  it("refuses a callback whose state is not the one the hub sent, and one without the browser's cookie", async () => {
    const page = await harness.newPage();
    await page.goto(`/login`);
    // Start a real sign-in, then come back with a forged state (the code is real).
    await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
    await page.locator('input[name="login"]').fill("grace");
    await page.locator('input[name="password"]').fill("anything");
    await page.getByRole("button", { name: "Sign-in" }).click();
    // Take the provider's real answer (a valid code) on its way to the hub and send it on with a forged
    // state: consent's POST redirects to the provider's resume URL, which redirects to the hub.
    await page.route(`${issuer}/interaction/**`, async (route) => {
      const consent = await route.fetch({ maxRedirects: 0 });
      const resume = new URL(consent.headers().location ?? "", issuer).href;
      const toHub = await page.request.get(resume, { maxRedirects: 0 });
      const answer = new URL(toHub.headers().location ?? "");
      expect(answer.searchParams.get("code")).toBeTruthy();
      answer.searchParams.set("state", "forged-state");
      await route.fulfill({ status: 303, headers: { location: answer.href } });
    });
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`${harness.hub.url}/login?sso=failed`);
    await page.getByRole("alert").getByText("Single sign-on did not complete").waitFor();
    const session = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
    expect(session).toEqual({ signedIn: false });
    // Straight to the callback, without having started here: no pending state, no session.
    const bare = await fetch(`${harness.hub.url}/api/auth/oidc/callback?code=x&state=y`, {
      redirect: "manual",
    });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/login?sso=failed");
    expect(bare.headers.get("set-cookie")).not.toContain("modelhub_session=");
    await page.context().close();
  });

  it("creates no account for a new person while sign-up is closed", async () => {
    await setSignupPolicy("closed");
    const page = await harness.newPage();
    await signInWithSso(page, "hedy");
    await expectTurnedAway(page, "hedy");
  });

  it("with invite-only sign-up, needs an invite link and uses it up", async () => {
    await setSignupPolicy("invite");
    // Without an invite: refused, nothing created.
    const uninvited = await harness.newPage();
    await signInWithSso(uninvited, "hedy");
    await expectTurnedAway(uninvited, "hedy");

    const made = await fetch(`${harness.hub.url}/api/admin/invites`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(made.status).toBe(201);
    const { path } = (await made.json()) as { path: string };
    // The invite link's page offers single sign-on, carrying the invite along.
    const invited = await harness.newPage();
    await invited.goto(path);
    await invited.getByRole("link", { name: "Sign up with single sign-on" }).click();
    await atProvider(invited, "hedy");
    await invited.waitForURL(`${harness.hub.url}/models`);
    expect(await sessionOf(invited)).toMatchObject({ signedIn: true, name: "hedy" });
    await invited.context().close();

    // The same link a second time: used, so no account for alan.
    const second = await harness.newPage();
    await second.goto(path);
    await second.getByRole("link", { name: "Sign up with single sign-on" }).click();
    await atProvider(second, "alan");
    await expectTurnedAway(second, "alan");
  });

  it("refuses an ID token whose nonce is not the one the hub sent", async () => {
    await setSignupPolicy("open");
    const page = await harness.newPage();
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
    // The hub keeps its nonce in the pending cookie: swap it for another, as a replayed ID token would
    // carry one the hub never sent. The provider signs the token with the nonce it was given.
    const context = page.context();
    const pending = (await context.cookies()).find((cookie) => cookie.name === "modelhub_oidc");
    expect(pending).toBeDefined();
    const state = JSON.parse(Buffer.from(pending!.value, "base64url").toString("utf8"));
    expect(typeof state.nonce).toBe("string");
    const forged = Buffer.from(JSON.stringify({ ...state, nonce: "not-the-nonce-that-was-sent" })).toString(
      "base64url",
    );
    await context.addCookies([{ ...pending!, value: forged }]);
    await atProvider(page, "alan");
    await expectTurnedAway(page, "alan");
  });
});
