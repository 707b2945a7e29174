import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { expectSound } from "./page-expectations.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";
import { signedInPage } from "./repo-users.js";

/**
 * Issue 40's page bits, against a real hub: an organization's own inference providers on its page (its admin
 * adds a server, maps a model, checks health, removes it; a member sees them; an outsider not at all) and the
 * built-in llama.cpp provider on `/admin/providers` (enabled models with their quantization and state,
 * enable and disable). Each checked at 1366 and 390 px in both themes: no sideways scroll, popovers inside,
 * no severe axe finding.
 */
const PASSWORD = "correct horse battery";
const KEY = `sk-org-page-${"p".repeat(16)}`;
const CHAT = "Qwen/Qwen2.5-7B-Instruct";
const GGUF_REPO = `${SEEDED.org}/tiny-chat-GGUF`;
const VIEWS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
].flatMap((viewport) =>
  (["light", "dark"] as ColorScheme[]).map((colorScheme) => ({ viewport, colorScheme })),
);

let harness: WebHarness;
let adaToken: string;
/** An OpenAI-compatible server's health answer: `GET /v1/models` 200. */
let server: Server;
let serverUrl: string;

async function call(method: string, path: string, body?: unknown, token = SEED_ADMIN_TOKEN) {
  const response = await fetch(`${harness.hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: [{ id: "qwen-acme", object: "model" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  harness = await startWebHarness({
    adminToken: SEED_ADMIN_TOKEN,
    // The organization's server is on loopback; health is checked when the page asks.
    orgProvidersAllowPrivate: true,
    ownProvidersHealthIntervalMs: 3_600_000,
    // Running, nothing loaded: llama.cpp is imported on a model's first call, which nothing here makes.
    localProvider: {},
  });
  adaToken = (await seedRepoPages(harness)).token;
  for (const [name, isAdmin] of [
    ["bob", false],
    ["otto", false],
    ["root", true],
  ] as const) {
    await call("POST", "/api/admin/users", { name, password: PASSWORD, isAdmin });
  }
  await call("PUT", `/api/organizations/${SEEDED.org}/members/bob`, { role: "read" }, adaToken);
  // A model repository with one GGUF file naming its quantization (its bytes are never loaded here).
  await call("POST", "/api/repos/create", { type: "model", name: GGUF_REPO }, adaToken);
  const commit = await fetch(`${harness.hub.url}/api/models/${GGUF_REPO}/commit/main`, {
    method: "POST",
    headers: { authorization: `Bearer ${adaToken}`, "content-type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "Add the weights" } },
      {
        key: "file",
        value: {
          path: "tiny-chat-Q4_K_M.gguf",
          content: Buffer.from("GGUF not really").toString("base64"),
          encoding: "base64",
        },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(commit.status, await commit.text()).toBe(200);
}, 120_000);
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const signedIn = (name: string, view = VIEWS[0]!) => signedInPage(harness, name, view, PASSWORD);

describe("an organization's inference providers on its page", () => {
  it("lets its admin add a server, map a model and check its health; the key is never shown", {
    timeout: 240_000,
  }, async () => {
    const { page, problems } = await signedIn(SEEDED.user);
    await page.goto(`/organizations/${SEEDED.org}`);
    const section = page.getByRole("region", { name: "Inference providers" });
    await section.getByText("No providers yet.").waitFor();
    const add = page.getByRole("form", { name: "Add or replace a provider" });
    await add.getByLabel("Name").fill("gpu");
    await add.getByLabel("Base URL").fill(serverUrl);
    await add.getByLabel("API key").fill(KEY);
    await add.getByRole("button", { name: "Save provider" }).click();
    await add
      .getByRole("status")
      .filter({ hasText: `owner/name:${SEEDED.org}/gpu` })
      .waitFor();
    const map = page.getByRole("form", { name: "Serve a hub model" });
    await map.getByLabel("Provider").fill("gpu");
    await map.getByLabel("Hub model").fill(CHAT);
    await map.getByLabel("Name on the server").fill("qwen-acme");
    await map.getByRole("button", { name: "Map model" }).click();
    await map.getByRole("status").waitFor();
    const item = page.getByRole("list", { name: "Inference providers" }).getByRole("listitem").first();
    await item.getByText(`${SEEDED.org}/gpu`, { exact: true }).waitFor();
    await item.getByText(`${CHAT} (chat) as qwen-acme`).waitFor();
    await item.getByText(`****${KEY.slice(-4)}`, { exact: false }).waitFor();
    await section.getByRole("button", { name: "Check health now" }).click();
    await item.getByText("Up", { exact: true }).waitFor();
    expect(await page.content()).not.toContain(KEY);
    expect(problems).toEqual([]);

    for (const view of VIEWS) {
      const { page: viewed, problems: viewProblems } = await signedIn(SEEDED.user, view);
      await viewed.goto(`/organizations/${SEEDED.org}`);
      await viewed.getByText(`${CHAT} (chat) as qwen-acme`).waitFor();
      await expectSound(viewed, view.colorScheme);
      expect(viewProblems).toEqual([]);
      await viewed.context().close();
    }
  });

  it("shows a member the servers without the forms, and an outsider nothing of them", async () => {
    const { page: bob, problems } = await signedIn("bob");
    await bob.goto(`/organizations/${SEEDED.org}`);
    await bob.getByText(`${CHAT} (chat) as qwen-acme`).waitFor();
    expect(await bob.getByRole("form", { name: "Add or replace a provider" }).count()).toBe(0);
    expect(await bob.getByRole("button", { name: "Remove gpu" }).count()).toBe(0);
    expect(problems).toEqual([]);
    for (const view of VIEWS.filter((v) => v.viewport.width === 390)) {
      const { page: viewed } = await signedIn("bob", view);
      await viewed.goto(`/organizations/${SEEDED.org}`);
      await viewed.getByText(`${CHAT} (chat) as qwen-acme`).waitFor();
      await expectSound(viewed, view.colorScheme);
      await viewed.context().close();
    }
    const { page: otto, problems: ottoProblems } = await signedIn("otto");
    await otto.goto(`/organizations/${SEEDED.org}`);
    await otto.getByRole("list", { name: "Members" }).waitFor();
    expect(await otto.getByRole("region", { name: "Inference providers" }).count()).toBe(0);
    expect(await otto.content()).not.toContain("qwen-acme");
    expect(ottoProblems).toEqual([]);
  });

  it("lets its admin unmap the model and remove the server", async () => {
    const { page } = await signedIn(SEEDED.user);
    await page.goto(`/organizations/${SEEDED.org}`);
    await page.getByRole("button", { name: `Stop serving ${CHAT} on gpu` }).click();
    await page.getByText("Serves no hub model yet.").waitFor();
    await page.getByRole("button", { name: "Remove gpu" }).click();
    await page.getByText("No providers yet.").waitFor();
  });
});

describe("the local provider on /admin/providers", () => {
  it("enables a model's quantization, shows it idle, and disables it", { timeout: 240_000 }, async () => {
    const { page, problems } = await signedIn("root");
    await page.goto("/admin/providers");
    const section = page.getByRole("region", { name: "Local provider (llama.cpp)" });
    await section.getByText("Running: 0 calls generating, 0 waiting.").waitFor();
    await section.getByText("No model enabled yet.").waitFor();
    const form = page.getByRole("form", { name: "Enable a model on the local provider" });
    await form.getByLabel("Model repository").fill(GGUF_REPO);
    await form.getByLabel("Quantization").fill("q4_k_m");
    await form.getByRole("button", { name: "Enable" }).click();
    await form.getByRole("status").filter({ hasText: "tiny-chat-Q4_K_M.gguf" }).waitFor();
    const item = page.getByRole("list", { name: "Local provider models" }).getByRole("listitem").first();
    await item.getByText(GGUF_REPO, { exact: true }).waitFor();
    await item.getByText("Q4_K_M", { exact: true }).waitFor();
    await item.getByText("Idle (loads on its next call)").waitFor();
    // A quantization the repository has no file for: the hub's reason, shown.
    await form.getByLabel("Model repository").fill(GGUF_REPO);
    await form.getByLabel("Quantization").fill("F16");
    await form.getByRole("button", { name: "Enable" }).click();
    await form.getByRole("alert").filter({ hasText: "tiny-chat-Q4_K_M.gguf" }).waitFor();
    expect(problems.filter((problem) => !problem.includes("400"))).toEqual([]);

    for (const view of VIEWS) {
      const { page: viewed, problems: viewProblems } = await signedIn("root", view);
      await viewed.goto("/admin/providers");
      await viewed.getByText("Idle (loads on its next call)").waitFor();
      await expectSound(viewed, view.colorScheme);
      expect(viewProblems).toEqual([]);
      await viewed.context().close();
    }

    await item.getByRole("button", { name: `Disable ${GGUF_REPO} Q4_K_M` }).click();
    await section.getByText("No model enabled yet.").waitFor();
  });
});
