import { join } from "node:path";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { createJsonLogger } from "../logger.js";
import type { RunningHub } from "../start-hub.js";

/**
 * No secret in any log line: a real hub logging at debug level (with no list of values to blank out, so
 * nothing is hidden after the fact) goes through sign-ins (right and wrong passwords), a password change
 * and an admin's reset, tokens made on the page and by an admin, revoked and forged tokens, router calls
 * to a provider that needs its key, a failed single sign-on and a sign-out. Then every line is searched
 * for each secret.
 */
const ADMIN_TOKEN = "operator-admin-token-for-the-log-test";
const PROVIDER_KEY = "together-key-that-must-never-be-logged";
const OIDC_SECRET = "oidc-client-secret-that-must-never-be-logged";
const PASSWORD = "first password, long enough";
const WRONG_PASSWORD = "a wrong password, also long";
const NEW_PASSWORD = "second password, long enough";
const RESET_PASSWORD = "password an admin set, long enough";
/** A public, ungated chat model (a gated one would need the user's grant for the router). */
const CHAT = "Qwen/Qwen2.5-7B-Instruct";

const lines: string[] = [];
const secrets: Record<string, string> = {
  ADMIN_TOKEN,
  PROVIDER_KEY,
  OIDC_SECRET,
  PASSWORD,
  WRONG_PASSWORD,
  NEW_PASSWORD,
  RESET_PASSWORD,
};
let temp: ReturnType<typeof makeTempDir>;
let sim: ProviderSim;
let hub: RunningHub;

beforeAll(async () => {
  temp = makeTempDir();
  sim = await startProviderSim({ providerKeys: { together: [PROVIDER_KEY] } });
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    logger: createJsonLogger({ write: (line) => lines.push(line), level: "debug" }),
    adminToken: ADMIN_TOKEN,
    providerKeys: { together: PROVIDER_KEY },
    providerBaseUrls: { together: sim.providerUrl("together") },
    oidc: { issuer: "http://127.0.0.1:9", clientId: "hub", clientSecret: OIDC_SECRET },
  });
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await sim?.close();
  temp?.remove();
});

async function call(
  method: string,
  path: string,
  options: { auth?: string; cookie?: string; csrf?: string; body?: unknown } = {},
) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    redirect: "manual",
    headers: {
      ...(options.auth ? { Authorization: `Bearer ${options.auth}` } : {}),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
      ...(options.csrf ? { "X-CSRF-Token": options.csrf } : {}),
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text), headers: response.headers };
}

describe("secrets and the log", () => {
  it("never writes a password, token, session id, CSRF token or provider key to any log line", {
    timeout: 60_000,
  }, async () => {
    expect(
      (
        await call("POST", "/api/admin/users", {
          auth: ADMIN_TOKEN,
          body: { name: "lee", password: PASSWORD },
        })
      ).status,
    ).toBe(201);

    // Sign-ins: wrong, then right.
    for (let attempt = 0; attempt < 2; attempt++)
      expect(
        (await call("POST", "/api/auth/signin", { body: { name: "lee", password: WRONG_PASSWORD } })).status,
      ).toBe(401);
    const signedIn = await call("POST", "/api/auth/signin", { body: { name: "lee", password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    secrets.SESSION_ID = cookie.split("=")[1]!;
    secrets.CSRF_TOKEN = signedIn.json().csrfToken;

    // Tokens: made on the settings page (the session), shown once; another revoked; one made by an admin.
    const made = await call("POST", "/api/settings/tokens", {
      cookie,
      csrf: secrets.CSRF_TOKEN,
      body: { name: "laptop", role: "write" },
    });
    expect(made.status).toBe(201);
    const token: string = made.json().token;
    secrets.TOKEN = token;
    const doomed = (
      await call("POST", "/api/settings/tokens", {
        cookie,
        csrf: secrets.CSRF_TOKEN,
        body: { name: "old", role: "read" },
      })
    ).json();
    secrets.REVOKED_TOKEN = doomed.token;
    expect(
      (await call("DELETE", `/api/settings/tokens/${doomed.id}`, { cookie, csrf: secrets.CSRF_TOKEN }))
        .status,
    ).toBe(200);
    const byAdmin = await call("POST", "/api/admin/tokens", {
      auth: ADMIN_TOKEN,
      body: { user: "lee", role: "read", name: "ci" },
    });
    expect(byAdmin.status).toBe(201);
    secrets.ADMIN_MADE_TOKEN = byAdmin.json().token;
    secrets.FORGED_TOKEN = "hf_ThisTokenWasNeverIssuedByTheHub1234";

    // Using them: whoami, and the router (through the provider, with its key).
    const whoami = await call("GET", "/api/whoami-v2", { auth: token });
    expect(whoami.status).toBe(200);
    expect(whoami.text).not.toContain(token);
    for (const bad of [secrets.REVOKED_TOKEN, secrets.FORGED_TOKEN]) {
      const refused = await call("GET", "/api/whoami-v2", { auth: bad });
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain(bad);
    }
    const chat = { model: `${CHAT}:together`, messages: [{ role: "user", content: "hi" }], max_tokens: 4 };
    expect((await call("POST", "/v1/chat/completions", { auth: token, body: chat })).status).toBe(200);
    expect(
      (
        await call("POST", "/router/together/v1/chat/completions", {
          auth: token,
          body: { ...chat, model: CHAT },
        })
      ).status,
    ).toBe(200);
    const refusedCall = await call("POST", "/v1/chat/completions", {
      auth: secrets.REVOKED_TOKEN,
      body: chat,
    });
    expect(refusedCall.status).toBe(401);
    expect(refusedCall.text).not.toContain(PROVIDER_KEY);

    // Passwords: changed by the user, then reset by an admin; a failed single sign-on; sign-out.
    expect(
      (
        await call("PUT", "/api/settings/password", {
          cookie,
          csrf: secrets.CSRF_TOKEN,
          body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call("PATCH", "/api/admin/users/lee", { auth: ADMIN_TOKEN, body: { password: RESET_PASSWORD } }))
        .status,
    ).toBe(200);
    expect(
      (await call("POST", "/api/auth/signin", { body: { name: "lee", password: RESET_PASSWORD } })).status,
    ).toBe(200);
    const sso = await call("GET", "/api/auth/oidc/start");
    expect(sso.text).not.toContain(OIDC_SECRET);
    await call("POST", "/api/auth/signout", { cookie, csrf: secrets.CSRF_TOKEN });
    await hub.store.usage.flush();

    // The log saw all of it...
    const log = lines.join("\n");
    for (const path of [
      "/api/auth/signin",
      "/api/settings/tokens",
      "/v1/chat/completions",
      "/router/together/",
      "/api/whoami-v2",
    ])
      expect(log).toContain(path);
    // ...and none of the secrets.
    const leaks = Object.entries(secrets).flatMap(([name, value]) =>
      lines.filter((line) => line.includes(value)).map((line) => `${name}: ${line.slice(0, 200)}`),
    );
    expect(leaks).toEqual([]);
  });
});
