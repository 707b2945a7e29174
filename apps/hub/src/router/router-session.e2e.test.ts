import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimHub, startHubOnSim } from "../__fixtures__/sim-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

// Issue 38, item 5: the web playground calls the router with the signed-in user's session (the cookie the
// browser sends, and the session's CSRF token the page reads), never a token; usage is the user's.
const PASSWORD = "correct horse battery staple";
const messages = [{ role: "user", content: "What is the capital of France?" }];
let setup: SimHub;
let session: { cookie: string; csrfToken: string };

beforeAll(async () => {
  setup = await startHubOnSim();
  await accountsService(setup.hub.store.accounts).createUser({
    name: "wes",
    email: "wes@example.com",
    password: PASSWORD,
  });
  const signIn = await fetch(`${setup.hub.url}/api/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "wes", password: PASSWORD }),
  });
  const body = (await signIn.json()) as { csrfToken: string };
  session = { cookie: (signIn.headers.get("Set-Cookie") ?? "").split(";")[0]!, csrfToken: body.csrfToken };
});
afterAll(() => setup?.close());

const chat = (path: string, model: string, headers: Record<string, string>) =>
  fetch(`${setup.hub.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ model, messages, max_tokens: 5 }),
  });
const openAi = (headers: Record<string, string>) =>
  chat("/v1/chat/completions", "deepseek-ai/DeepSeek-R1:fireworks-ai", headers);
const perProvider = (headers: Record<string, string>) =>
  chat(
    "/router/fireworks-ai/inference/v1/chat/completions",
    "accounts/fireworks/models/deepseek-r1",
    headers,
  );

describe("the router with a browser session", () => {
  it("answers a signed-in user's page without a token, on both router paths, and records the usage as theirs", async () => {
    const headers = { Cookie: session.cookie, "X-CSRF-Token": session.csrfToken };
    const viaV1 = await openAi(headers);
    expect(viaV1.status, await viaV1.clone().text()).toBe(200);
    const viaProvider = await perProvider(headers);
    expect(viaProvider.status, await viaProvider.clone().text()).toBe(200);
    // Usage is written in batches: read until both calls are there.
    const usage = async () => {
      const answer = await fetch(`${setup.hub.url}/api/settings/usage`, {
        headers: { Cookie: session.cookie },
      });
      const rows = ((await answer.json()) as { usage: { provider: string; requests: number }[] }).usage;
      return rows.map((row) => ({ provider: row.provider, requests: row.requests }));
    };
    await expect.poll(usage).toEqual([
      { provider: "fireworks-ai", requests: 1 },
      { provider: "fireworks-ai", requests: 1 },
    ]);
  });

  it("refuses the cookie alone or with a wrong CSRF token (another site can make a browser send the cookie)", async () => {
    const attempts: Record<string, string>[] = [
      { Cookie: session.cookie },
      { Cookie: session.cookie, "X-CSRF-Token": "guessed" },
    ];
    for (const headers of attempts) {
      const refused = await openAi(headers);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("X-CSRF-Token");
      expect((await perProvider(headers)).status).toBe(403);
    }
  });

  it("still asks a caller without a session for a token, and saying how to use the web playground", async () => {
    const anonymous = await openAi({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain("sign in to use the web playground");
    const stale = await openAi({ Cookie: "modelhub_session=stale", "X-CSRF-Token": session.csrfToken });
    expect(stale.status).toBe(401);
  });

  it("never lets another origin send the CSRF header or credentials (CORS preflight)", async () => {
    const preflight = await fetch(`${setup.hub.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-csrf-token",
      },
    });
    expect(preflight.headers.get("Access-Control-Allow-Headers") ?? "").not.toMatch(/x-csrf-token/i);
    expect(preflight.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });
});
