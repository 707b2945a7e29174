import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningHub, type StartHubOptions, startHub } from "@modelhub/hub";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { signIn } from "./repo-users.js";

/**
 * A hub that mirrors another (UPSTREAM_URL), seen in the browser: a mirrored repository's page says where
 * it comes from and shows upstream's card and files; a site admin's Mirror section shows the upstream, the
 * cache and what was fetched. Both hubs run on loopback in this process.
 */
const ADMIN_TOKEN = "e2e-mirror-admin-token-0123456789";
const PASSWORD = "correct horse battery";
const MODEL = "olivia/tiny-model";
const CARD =
  "---\nlicense: mit\npipeline_tag: text-generation\n---\n# Tiny model\n\nServed by the upstream hub.\n";

let upstream: RunningHub;
let upstreamDir: string;
let harness: WebHarness;

async function call(hubUrl: string, token: string, method: string, path: string, body: string, type: string) {
  const response = await fetch(`${hubUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}
const json = (value: unknown) => JSON.stringify(value);

beforeAll(async () => {
  upstreamDir = mkdtempSync(join(tmpdir(), "modelhub-web-upstream-"));
  upstream = await startHub({ port: 0, dataDir: upstreamDir, adminToken: ADMIN_TOKEN });
  const admin = (path: string, body: unknown) =>
    call(upstream.url, ADMIN_TOKEN, "POST", path, json(body), "application/json");
  await admin("/api/admin/users", { name: "olivia", password: PASSWORD });
  const { token } = (await admin("/api/admin/tokens", { user: "olivia", name: "seed", role: "write" })) as {
    token: string;
  };
  await call(
    upstream.url,
    token,
    "POST",
    "/api/repos/create",
    json({ name: "tiny-model" }),
    "application/json",
  );
  const file = (path: string, content: string) => ({
    key: "file",
    value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
  });
  const commit = [
    { key: "header", value: { summary: "Add the card and the config" } },
    file("README.md", CARD),
    file("config.json", json({ model_type: "gpt2", n_layer: 2 })),
  ];
  await call(
    upstream.url,
    token,
    "POST",
    `/api/models/${MODEL}/commit/main`,
    commit.map((line) => json(line)).join("\n"),
    "application/x-ndjson",
  );

  const mirror: NonNullable<StartHubOptions["mirror"]> = {
    upstreamUrl: upstream.url,
    upstreamToken: undefined,
    mode: "pull-through",
    revisionTtlMs: 60_000,
    allow: [],
    deny: [],
    licenses: [],
    maxFileSize: undefined,
    maxCacheSize: undefined,
    localNamespaces: [],
    upstreamTimeoutMs: 5_000,
  };
  harness = await startWebHarness({ adminToken: ADMIN_TOKEN, mirror });
  await call(
    harness.hub.url,
    ADMIN_TOKEN,
    "POST",
    "/api/admin/users",
    json({ name: "root", password: PASSWORD, isAdmin: true }),
    "application/json",
  );
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await upstream?.close();
  if (upstreamDir) rmSync(upstreamDir, { recursive: true, force: true });
});

const VIEWS: Array<{ width: number; height: number; colorScheme: ColorScheme }> = [
  { width: 1366, height: 900, colorScheme: "light" },
  { width: 390, height: 844, colorScheme: "dark" },
];

async function checkLayout(page: Page, colorScheme: ColorScheme, shot: string) {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await severeAxeFindings(page, colorScheme)).toEqual([]);
  await page.screenshot({ path: join(tmpdir(), `modelhub-e2e-${shot}.png`) });
}

describe("a mirrored repository in the browser", () => {
  it.each(VIEWS)(
    "says where it comes from and shows upstream's card and files ($width px, $colorScheme)",
    async ({ width, height, colorScheme }) => {
      const page = await harness.newPage({ viewport: { width, height }, colorScheme });
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto(`/${MODEL}`);
      const badge = page.getByTestId("mirror-badge");
      await badge.waitFor();
      expect(await badge.textContent()).toBe(`Mirrored from ${new URL(upstream.url).host}`);
      expect(await badge.getAttribute("href")).toBe(`${upstream.url}/${MODEL}`);
      await page.getByRole("heading", { name: "Tiny model" }).waitFor();
      await page.getByText("Served by the upstream hub.").waitFor();
      await checkLayout(page, colorScheme, `mirror-model-${width}`);

      await page.goto(`/${MODEL}/tree/main`);
      await page.getByRole("link", { name: "config.json" }).waitFor();
      await checkLayout(page, colorScheme, `mirror-files-${width}`);
      expect(problems).toEqual([]);
    },
  );

  it.each(VIEWS)(
    "shows a site admin the upstream and the cache ($width px, $colorScheme)",
    async ({ width, height, colorScheme }) => {
      const page = await harness.newPage({ viewport: { width, height }, colorScheme });
      await signIn(page, "root", PASSWORD);
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto("/admin/mirror");
      const mirrors = page.getByRole("definition").filter({ hasText: upstream.url });
      await mirrors.waitFor();
      // The repository page above brought one repository in.
      const repositories = page
        .locator("dt", { hasText: "Mirrored repositories" })
        .locator("xpath=following-sibling::dd[1]");
      expect(await repositories.textContent()).toBe("1");
      await page.getByRole("button", { name: "Evict all cached files" }).waitFor();
      await checkLayout(page, colorScheme, `mirror-admin-${width}`);
      expect(problems).toEqual([]);
    },
  );
});
