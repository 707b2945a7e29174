import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { severeAxeFindings, watchPage } from "./page-checks.js";
import { expectSound } from "./page-expectations.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";
import { signedInPage } from "./repo-users.js";

/**
 * The pages an organization runs on, against a real hub: webhook settings (create, send a test event to a
 * receiver on loopback, the delivery log and replay, edit, disable, delete), the header search by keyboard
 * alone and the search page (no private repository for those who may not see it), and the audit log of an
 * organization (its admins only) and of the site, with filters and the JSON Lines export. Each page is
 * checked at 1366 and 390 px in both themes: no sideways scroll, popovers inside, no severe axe finding.
 */
const PASSWORD = "correct horse battery";
const VIEWS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
].flatMap((viewport) =>
  (["light", "dark"] as ColorScheme[]).map((colorScheme) => ({ viewport, colorScheme })),
);

let harness: WebHarness;
let adaToken: string;
const received: Array<{ headers: IncomingHttpHeaders; body: { event?: { action?: string } } }> = [];
let receiver: Server;
let receiverUrl: string;

async function adminCall(method: string, path: string, body?: unknown, token = SEED_ADMIN_TOKEN) {
  const response = await fetch(`${harness.hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  harness = await startWebHarness({
    adminToken: SEED_ADMIN_TOKEN,
    // The receiver is on loopback (WEBHOOK_ALLOW_PRIVATE); deliveries are looked for often.
    webhooks: { allowPrivate: true, delivery: { pollMs: 100 } },
  });
  adaToken = (await seedRepoPages(harness)).token;
  await adminCall("POST", "/api/admin/users", { name: "bob", password: PASSWORD });
  await adminCall("POST", "/api/admin/users", { name: "root", password: PASSWORD, isAdmin: true });
  // A private model of ada's whose id the search would find: nobody else may see it.
  await adminCall(
    "POST",
    "/api/repos/create",
    { type: "model", name: "weather-secret", private: true },
    adaToken,
  );
}, 120_000);
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const signedIn = (name: string, view = VIEWS[0]!) => signedInPage(harness, name, view, PASSWORD);

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab until `target` has the focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  await target.waitFor();
  for (let presses = 0; presses <= limit; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

describe("webhook settings", () => {
  it("creates a webhook, sends a test event, shows and replays its delivery, edits, disables, deletes", {
    timeout: 240_000,
  }, async () => {
    const { page, problems } = await signedIn(SEEDED.user);
    await page.goto("/settings/webhooks");
    await expect.poll(() => page.title()).toBe("Webhooks · Settings · Modelhub");
    await page.getByText("No webhooks yet.").waitFor();
    const form = page.getByRole("form", { name: "New webhook" });
    await form.getByLabel("Target URL").fill(receiverUrl);
    await form.getByLabel("Kind").selectOption("user");
    await form.getByLabel("Name").fill(SEEDED.user);
    await form.getByLabel("Secret").fill("s3cret");
    await form.getByRole("button", { name: "Create webhook" }).click();
    await form.getByRole("status").filter({ hasText: "Webhook created." }).waitFor();
    const item = page.getByRole("list", { name: "Webhooks" }).getByRole("listitem").first();
    await item.getByText(receiverUrl).waitFor();
    await item.getByText("Enabled", { exact: true }).waitFor();

    await item.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
    expect(received[0]!.headers["x-webhook-secret"]).toBe("s3cret");
    expect(received[0]!.body.event).toEqual({ action: "test", scope: "webhook" });
    const log = item.getByRole("region", { name: `Deliveries to ${receiverUrl}` });
    const delivered = log.getByRole("row").filter({ hasText: "Delivered" });
    await delivered.first().waitFor({ timeout: 20_000 });
    await expect.poll(() => delivered.first().getByRole("cell").nth(2).textContent()).toBe("200");

    await log
      .getByRole("button", { name: /^Replay delivery/ })
      .first()
      .click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    await log.getByText(/^replay of \d+$/).waitFor({ timeout: 20_000 });

    // Each view in a fresh page: the list with its delivery log open.
    for (const view of VIEWS) {
      const { page: viewed, problems: viewProblems } = await signedIn(SEEDED.user, view);
      await viewed.goto("/settings/webhooks");
      await viewed.getByRole("button", { name: "Deliveries" }).click();
      await viewed.getByRole("row").filter({ hasText: "Delivered" }).first().waitFor();
      await expectSound(viewed, view.colorScheme);
      expect(viewProblems).toEqual([]);
      await viewed.context().close();
    }

    await item.getByRole("button", { name: "Edit" }).click();
    const edit = item.getByRole("form", { name: `Edit the webhook to ${receiverUrl}` });
    await edit.getByLabel("Target URL").fill(`${receiverUrl}/v2`);
    await edit.getByRole("button", { name: "Save webhook" }).click();
    await item.getByText(`${receiverUrl}/v2`).waitFor();

    await item.getByRole("button", { name: "Disable" }).click();
    await item.getByText("Disabled", { exact: true }).waitFor();
    await item.getByText("Disabled by its owner.").waitFor();
    await item.getByRole("button", { name: "Enable" }).click();
    await item.getByText("Enabled", { exact: true }).waitFor();

    page.once("dialog", (dialog) => dialog.accept());
    await item.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No webhooks yet.").waitFor();
    const left = (await adminCall(
      "GET",
      "/api/settings/webhooks",
      undefined,
      adaToken,
    )) as unknown as unknown[];
    expect(left).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe("search", () => {
  it("finds by keyboard alone from the header: an arrow to a suggestion, Enter opens it", {
    timeout: 240_000,
  }, async () => {
    const page = await harness.newPage(VIEWS[0]);
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/models");
    const box = page.getByRole("combobox", { name: /Search models, datasets/ });
    await tabTo(page, box);
    await page.keyboard.type("weather");
    const option = page.getByRole("option", { name: new RegExp(SEEDED.dataset) });
    await option.waitFor();
    // ada's private model is not suggested to an anonymous visitor.
    expect(await page.getByRole("option", { name: /weather-secret/ }).count()).toBe(0);
    for (let presses = 0; presses < 12; presses++) {
      await page.keyboard.press("ArrowDown");
      if ((await option.getAttribute("aria-selected")) === "true") break;
    }
    expect(await box.getAttribute("aria-activedescendant")).toBe(await option.getAttribute("id"));
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/datasets/${SEEDED.dataset}`);

    // Enter with nothing chosen opens the search page for the text; Escape closes the list first.
    await tabTo(page, box);
    await page.keyboard.type("weather");
    await page.getByRole("listbox", { name: "Search suggestions" }).waitFor();
    await page.keyboard.press("Escape");
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/search?q=weather");
    await expect.poll(() => page.title()).toBe("Search results for “weather” · Modelhub");
    expect(problems).toEqual([]);
  });

  it("shows the full-text results with type filters; a private repository only to who may see it", {
    timeout: 240_000,
  }, async () => {
    for (const view of VIEWS) {
      const page = await harness.newPage(view);
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto("/search?q=weather");
      const results = page.getByRole("list", { name: "Search results" });
      await results.getByRole("link", { name: SEEDED.dataset }).waitFor();
      expect(await results.getByRole("link", { name: /weather-secret/ }).count()).toBe(0);
      // The list's title is the listing's; the search page's says what was searched.
      expect(await page.title()).not.toBe("Models · Modelhub");
      await expectSound(page, view.colorScheme);
      // The header's suggestions: inside the viewport, and no severe axe finding while they show.
      await page.getByRole("combobox", { name: /Search models, datasets/ }).fill("weather");
      await page.getByRole("option", { name: new RegExp(SEEDED.dataset) }).waitFor();
      const list = await page.getByRole("listbox", { name: "Search suggestions" }).boundingBox();
      expect(list!.x).toBeGreaterThanOrEqual(0);
      expect(list!.x + list!.width).toBeLessThanOrEqual(view.viewport.width);
      if (view === VIEWS[0]) expect(await severeAxeFindings(page, view.colorScheme)).toEqual([]);
      await page.keyboard.press("Escape");
      expect(problems).toEqual([]);
    }

    const { page } = await signedIn(SEEDED.user);
    await page.goto("/search?q=weather");
    const results = page.getByRole("list", { name: "Search results" });
    await results.getByRole("link", { name: `${SEEDED.user}/weather-secret` }).waitFor();
    await page
      .getByRole("navigation", { name: "Result types" })
      .getByRole("link", { name: "Datasets" })
      .click();
    await page.waitForURL("**/search?q=weather&type=dataset");
    await results.getByRole("link", { name: SEEDED.dataset }).waitFor();
    expect(await results.getByRole("link", { name: /weather-secret/ }).count()).toBe(0);
  });
});

describe("audit log", () => {
  it("shows an organization's admins its entries, filtered, with the export; refuses a non-member", {
    timeout: 240_000,
  }, async () => {
    const { page, problems } = await signedIn(SEEDED.user);
    await page.goto(`/organizations/${SEEDED.org}`);
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL(`**/organizations/${SEEDED.org}/audit-log`);
    await expect.poll(() => page.title()).toBe(`Audit log · ${SEEDED.org} · Modelhub`);
    const entries = page.getByRole("region", { name: "Audit log entries" });
    await entries.getByText(`space/${SEEDED.space}`).first().waitFor();
    // The organization's log only: ada's own dataset is in her namespace, not acme's.
    expect(await entries.getByText(`dataset/${SEEDED.dataset}`).count()).toBe(0);

    const filters = page.getByRole("form", { name: "Audit log filters" });
    await filters.getByLabel("Action").selectOption("repo.create");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect
      .poll(async () => [...new Set(await entries.locator("tbody tr td:nth-child(3)").allTextContents())])
      .toEqual(["repo.create"]);
    const exportLink = page.getByRole("link", { name: "Export as JSON Lines" });
    const href = (await exportLink.getAttribute("href")) ?? "";
    expect(href).toBe(`/api/organizations/${SEEDED.org}/audit-log/export?action=repo.create`);
    const exported = await page.request.get(href);
    expect(exported.headers()["content-type"]).toContain("application/x-ndjson");
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((entry) => entry.action === "repo.create" && entry.namespace === SEEDED.org)).toBe(
      true,
    );

    for (const view of VIEWS) {
      await page.setViewportSize(view.viewport);
      await page.emulateMedia({ colorScheme: view.colorScheme });
      await expectSound(page, view.colorScheme);
    }
    expect(problems).toEqual([]);

    const bob = await harness.newPage(VIEWS[0]);
    await bob.request.post("/api/auth/signin", { data: { name: "bob", password: PASSWORD } });
    await bob.goto(`/organizations/${SEEDED.org}/audit-log`);
    await bob.getByRole("alert").waitFor();
    expect(await bob.getByRole("region", { name: "Audit log entries" }).count()).toBe(0);
  });

  it("shows the site admin every organization's and user's entries", { timeout: 240_000 }, async () => {
    const { page } = await signedIn("root", VIEWS[3]);
    await page.goto("/admin/audit-log");
    await expect.poll(() => page.title()).toBe("Audit log · Administration · Modelhub");
    const entries = page.getByRole("region", { name: "Audit log entries" });
    await entries.getByText(`space/${SEEDED.space}`).first().waitFor();
    await entries.getByText(`dataset/${SEEDED.dataset}`).first().waitFor();
    await expectSound(page, "dark");
  });
});
