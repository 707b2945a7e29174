import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { expectSound } from "./page-expectations.js";
import { SEED_ADMIN_TOKEN } from "./repo-seed.js";
import { signedInPage } from "./repo-users.js";

/**
 * The site's own inference providers on `/admin/providers`, against a real hub: a site administrator adds a
 * server that answers its health check and one that is down, checks health, and meets the failure paths (a
 * base URL that is not one, a reserved name). What the page shows of a server that is down (the reason), at
 * 1366 and 390 px in both themes: no sideways scroll, no severe axe finding; the key never shown.
 */
const PASSWORD = "correct horse battery";
const KEY = `sk-site-page-${"s".repeat(16)}`;
const VIEWS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
].flatMap((viewport) =>
  (["light", "dark"] as ColorScheme[]).map((colorScheme) => ({ viewport, colorScheme })),
);

let harness: WebHarness;
/** An OpenAI-compatible server's health answer: `GET /v1/models` 200. */
let server: Server;
let serverUrl: string;
/** A port nothing listens on: a server that is down. */
let downUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: [{ id: "qwen-site", object: "model" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  await new Promise((resolve) => closed.close(resolve));
  harness = await startWebHarness({
    adminToken: SEED_ADMIN_TOKEN,
    ownProvidersHealthIntervalMs: 3_600_000,
  });
  const created = await fetch(`${harness.hub.url}/api/admin/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${SEED_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "root", password: PASSWORD, isAdmin: true }),
  });
  expect(created.status, await created.text()).toBeLessThan(300);
}, 120_000);
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("the site's own providers on /admin/providers", () => {
  it("adds servers, says why one is down and what was wrong with a form; the key is never shown", {
    timeout: 240_000,
  }, async () => {
    const { page, problems } = await signedInPage(harness, "root", VIEWS[0]!, PASSWORD);
    await page.goto("/admin/providers");
    const section = page.getByRole("region", { name: "Own inference providers" });
    await section.getByText("No own providers yet.").waitFor();
    const add = page.getByRole("form", { name: "Add or replace a server" });
    const save = async (name: string, baseUrl: string, apiKey?: string) => {
      await add.getByLabel("Name").fill(name);
      await add.getByLabel("Base URL").fill(baseUrl);
      if (apiKey) await add.getByLabel("API key").fill(apiKey);
      await add.getByRole("button", { name: "Save server" }).click();
    };

    // Failure paths: the hub's reason, shown where the admin typed.
    await save("gpu", "gpu-1:8000");
    await add.getByRole("alert").filter({ hasText: "baseUrl must be an http" }).waitFor();
    await save("together", serverUrl);
    await add.getByRole("alert").filter({ hasText: "already means something" }).waitFor();

    await save("gpu", serverUrl, KEY);
    await add.getByRole("status").filter({ hasText: "Saved gpu." }).waitFor();
    await save("gpu-down", downUrl);
    await add.getByRole("status").filter({ hasText: "Saved gpu-down." }).waitFor();
    await section.getByRole("button", { name: "Check health now" }).click();
    const list = section.getByRole("list").first();
    const up = list.getByRole("listitem").filter({ hasText: serverUrl });
    const down = list.getByRole("listitem").filter({ hasText: downUrl });
    await up.getByText("Up", { exact: true }).waitFor();
    await down.getByText(/Down \(health check failed \(ECONNREFUSED\)\)/).waitFor();
    await up.getByText(`****${KEY.slice(-4)}`, { exact: false }).waitFor();
    expect(await page.content()).not.toContain(KEY);
    expect(problems.filter((problem) => !problem.includes("400"))).toEqual([]);

    for (const view of VIEWS) {
      const { page: viewed, problems: viewProblems } = await signedInPage(harness, "root", view, PASSWORD);
      await viewed.goto("/admin/providers");
      await viewed.getByText(/health check failed/).waitFor();
      await expectSound(viewed, view.colorScheme);
      expect(await viewed.content()).not.toContain(KEY);
      expect(viewProblems).toEqual([]);
      await viewed.context().close();
    }
  });
});
