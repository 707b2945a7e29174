/**
 * An organization's "check health now" (`POST /api/organizations/{org}/providers/check`), against a real hub
 * on loopback and a real server counting the checks it gets. Any user may make an organization, and so have
 * this button: it checked every provider of the site and of every organization, as often as it was pressed,
 * so that one user could have the hub call everyone's servers in a loop. Rules under test: it checks the
 * organization's own providers only, and not more often than ORG_CHECK_MIN_INTERVAL_MS.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { ORG_CHECK_MIN_INTERVAL_MS, OWN_PROVIDERS_TTL_MS } from "../router/own-providers-registry.js";
import type { RunningHub } from "../start-hub.js";

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let server: Server;
let serverUrl: string;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
/** The checks each provider's health path got. */
const checks = new Map<string, number>();

beforeAll(async () => {
  temp = makeTempDir();
  server = createServer((request, response) => {
    checks.set(request.url ?? "", (checks.get(request.url ?? "") ?? 0) + 1);
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    // The servers here are on loopback.
    orgProvidersAllowPrivate: true,
    // No periodic check inside the test's window: only the button's.
    ownProvidersHealthIntervalMs: 3_600_000,
  });
  const seeded = await seedAccounts(hub.store);
  tokens = seeded.tokens;
  await seeded.service.createOrg({ name: "rival", owner: "otto" });
  const otto = (await seeded.service.createToken("otto", { name: "otto", role: "write" })).token;
  const put = async (path: string, token: string, healthPath: string) => {
    const response = await fetch(`${hub.url}${path}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ baseUrl: `${serverUrl}/v1`, healthPath }),
    });
    expect([path, response.status]).toEqual([path, 201]);
  };
  await put("/api/organizations/acme/providers/gpu", tokens.adaWrite, "/acme-gpu");
  await put("/api/organizations/acme/providers/cpu", tokens.adaWrite, "/acme-cpu");
  await put("/api/organizations/rival/providers/gpu", otto, "/rival-gpu");
  await put("/api/admin/own-providers/site", ADMIN_TOKEN, "/site");
  // The check a provider gets when the router first reads it (here, for /v1/models) is over before counting.
  await new Promise((resolve) => setTimeout(resolve, OWN_PROVIDERS_TTL_MS + 50));
  await (await fetch(`${hub.url}/v1/models`, { headers: { Authorization: `Bearer ${otto}` } })).text();
  await new Promise((resolve) => setTimeout(resolve, 300));
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await new Promise((resolve) => server?.close(resolve));
  temp?.remove();
});

const checkNow = (org: string, token: string) =>
  fetch(`${hub.url}/api/organizations/${org}/providers/check`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });

describe("an organization's admin checking its providers now", () => {
  it("checks that organization's providers only, and at most every few seconds", async () => {
    checks.clear();
    const first = await checkNow("acme", tokens.adaWrite);
    expect(first.status).toBe(200);
    const listed = (await first.json()) as { name: string; health: { status: string } }[];
    expect(listed.map((provider) => [provider.name, provider.health.status])).toEqual([
      ["gpu", "up"],
      ["cpu", "up"],
    ]);
    // Pressed again and again: the check just made answers.
    for (let press = 0; press < 5; press++) {
      expect((await checkNow("acme", tokens.adaWrite)).status).toBe(200);
    }
    expect(Object.fromEntries(checks)).toEqual({ "/acme-gpu": 1, "/acme-cpu": 1 });
    expect(ORG_CHECK_MIN_INTERVAL_MS).toBeLessThanOrEqual(10_000);
  });

  it("checks a provider its admin just changed at once, and that one only", async () => {
    const changed = await fetch(`${hub.url}/api/organizations/acme/providers/cpu`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${tokens.adaWrite}`, "Content-Type": "application/json" },
      body: JSON.stringify({ baseUrl: `${serverUrl}/v1`, healthPath: "/acme-cpu-2" }),
    });
    expect(changed.status).toBe(200);
    checks.clear();
    expect((await checkNow("acme", tokens.adaWrite)).status).toBe(200);
    expect((await checkNow("acme", tokens.adaWrite)).status).toBe(200);
    expect(Object.fromEntries(checks)).toEqual({ "/acme-cpu-2": 1 });
  });
});
