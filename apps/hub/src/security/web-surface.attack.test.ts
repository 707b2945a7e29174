/**
 * Attacks on what a browser sees of the hub, against a real hub on loopback with raw HTTP:
 * - single sign-on as an open redirect: `next` is kept through the provider's round trip and the callback
 *   redirected to it, so `/\t/evil.example` (which browsers read as `//evil.example`) sent a freshly
 *   signed-in person to another site;
 * - web pages without a Content-Security-Policy: nothing stops an injected script, and a model card's images
 *   load from any origin (a tracking pixel on every visit of the model's page);
 * - `/metrics` open to anyone: request counts per route, object store calls and process figures.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { startOidcProvider, type TestOidcProvider } from "../__fixtures__/oidc-provider.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";

const WEB_INDEX = fileURLToPath(new URL("../../../web/index.html", import.meta.url));
const ADMIN_TOKEN = "admin-token-for-the-web-surface-test";
const IMAGE_ORIGIN = "https://images.example.org";

let temp: ReturnType<typeof makeTempDir>;
let provider: TestOidcProvider;
let hub: RunningHub;

beforeAll(async () => {
  temp = makeTempDir();
  provider = await startOidcProvider();
  // The web app's page as the hub serves it (its index.html; the scripts it names need not exist here).
  const webDist = join(temp.dir, "web");
  mkdirSync(join(webDist, "assets"), { recursive: true });
  copyFileSync(WEB_INDEX, join(webDist, "index.html"));
  writeFileSync(join(webDist, "assets", "app.js"), "export {};\n");
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    providerSim: false,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    adminToken: ADMIN_TOKEN,
    signupPolicy: "open",
    oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
    webDist,
    cardImageOrigins: [IMAGE_ORIGIN],
  });
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await provider?.close();
  temp?.remove();
});

/**
 * A whole sign-in through the provider, as a browser makes it: `/start?next=...`, the provider's answer,
 * `/callback` with the pending cookie. Returns where the callback sends the browser.
 */
async function signInReturningTo(next: string): Promise<string> {
  const start = await fetch(`${hub.url}/api/auth/oidc/start?next=${encodeURIComponent(next)}`, {
    redirect: "manual",
  });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(provider.issuer);
  const cookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith("modelhub_oidc="))!
    .split(";")[0]!;
  const code = provider.authorize(authorize.searchParams.get("nonce")!, {
    sub: "person-1",
    email: "person@example.com",
  });
  const state = authorize.searchParams.get("state")!;
  const callback = await fetch(
    `${hub.url}/api/auth/oidc/callback?code=${code}&state=${encodeURIComponent(state)}`,
    { redirect: "manual", headers: { Cookie: cookie } },
  );
  expect(callback.status).toBe(302);
  const location = callback.headers.get("location")!;
  expect(location, "the sign-in itself must succeed").not.toMatch(/sso=failed/);
  expect(callback.headers.getSetCookie().some((c) => c.startsWith("modelhub_session="))).toBe(true);
  return location;
}

describe("single sign-on returns only to a path of this hub", () => {
  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "HTTPS://evil.example/",
    "javascript:alert(1)",
    " /evil",
    "/ok\u0000/../",
    "/x\u2028y",
    "evil.example",
    "",
  ])("refuses %j and goes to /", async (next) => {
    const location = await signInReturningTo(next);
    expect(location).toBe("/");
  });

  it.each(["/models", "/settings/tokens?tab=new#create", "/alice/demo/blob/main/a%20b.txt", "/"])(
    "keeps %j",
    async (next) => {
      const location = await signInReturningTo(next);
      expect(location).toBe(next);
      expect(new URL(location, hub.url).origin).toBe(new URL(hub.url).origin);
    },
  );
});

describe("the web app's pages carry a strict Content-Security-Policy", () => {
  const directives = (policy: string) =>
    new Map(
      policy
        .split(";")
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...values]) => [name!, values]),
    );

  it.each(["/", "/models", "/no-such-page/at/all"])("on %s", async (path) => {
    const response = await fetch(`${hub.url}${path}`);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = response.headers.get("content-security-policy");
    expect(policy, "a Content-Security-Policy header").toBeTruthy();
    const csp = directives(policy!);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    // Scripts only from the hub's own files: no inline script, no eval.
    expect(csp.get("script-src")).toContain("'self'");
    for (const value of csp.get("script-src") ?? []) {
      expect(["'self'", "'wasm-unsafe-eval'"], `script-src ${value}`).toContain(value);
    }
    // Images (a model card's among them) only from the hub and the configured allow-list.
    expect([...(csp.get("img-src") ?? [])].sort()).toEqual(["'self'", "blob:", "data:", IMAGE_ORIGIN].sort());
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    await response.text();
  });

  it("and the page itself has no inline script (which the policy would block)", async () => {
    const html = await (await fetch(`${hub.url}/`)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes, "each script is a file of the hub").toMatch(/\bsrc="\/[^/\\]/);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it("tells the web app which origins card images may come from", async () => {
    const site = (await (await fetch(`${hub.url}/api/site`)).json()) as { cardImageOrigins?: string[] };
    expect(site.cardImageOrigins).toEqual([IMAGE_ORIGIN]);
  });
});

describe("/metrics is for the operator", () => {
  it("refuses the anonymous and ordinary users, answers the admin token", async () => {
    expect((await fetch(`${hub.url}/metrics`)).status).toBe(401);
    const user = await userToken(hub.store, "mallory");
    const asUser = await fetch(`${hub.url}/metrics`, { headers: { Authorization: `Bearer ${user}` } });
    expect(asUser.status).toBe(403);
    expect(await asUser.text()).not.toContain("hub_http_requests_total");
    const asAdmin = await fetch(`${hub.url}/metrics`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain("hub_http_requests_total");
  });
});
