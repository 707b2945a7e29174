import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";
import { createRepo, signIn, signUp } from "./repo-users.js";

// The hub serves its pages under a strict Content-Security-Policy (apps/hub/src/http/content-security-policy.ts):
// scripts only from its own files, images only from itself and CARD_IMAGE_ORIGINS. Opened in Chromium, every
// page must still render with no policy violation, and a model card's image from elsewhere must not load.

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** An image server on loopback that counts what it was asked for. */
async function imageServer(): Promise<{ origin: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "image/png", "Content-Length": PNG.byteLength });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

let harness: WebHarness;
let allowed: Awaited<ReturnType<typeof imageServer>>;
let tracker: Awaited<ReturnType<typeof imageServer>>;
let owner: Page;

beforeAll(async () => {
  allowed = await imageServer();
  tracker = await imageServer();
  harness = await startWebHarness({ signupPolicy: "open", cardImageOrigins: [allowed.origin] });
  await signUp(harness, "alice");
  owner = await harness.newPage();
  const csrf = await signIn(owner, "alice");
  await createRepo(owner, csrf, "alice", "carded");
  const readme = [
    "# A card with pictures",
    "",
    "![from the hub](/alice/carded/resolve/main/plot.png)",
    "",
    `![from an allowed site](${allowed.origin}/allowed.png)`,
    "",
    `![tracking pixel](${tracker.origin}/pixel.png?reader=you)`,
  ].join("\n");
  const file = (path: string, content: Buffer) => ({
    key: "file",
    value: { path, content: content.toString("base64"), encoding: "base64" },
  });
  const lines = [
    { key: "header", value: { summary: "A card with images" } },
    file("README.md", Buffer.from(readme)),
    file("plot.png", PNG),
  ];
  const commit = await owner.request.post("/api/models/alice/carded/commit/main", {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(commit.status(), await commit.text()).toBe(200);
});
afterAll(async () => {
  await harness?.close();
  allowed?.server.close();
  tracker?.server.close();
});

/** Records the page's Content-Security-Policy violations (as `directive blocked-URL`) from its first script. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  return () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
}

describe("the web app under its Content-Security-Policy", () => {
  it.each([
    ["/", 200],
    ["/models", 200],
    ["/datasets", 200],
    ["/login", 200],
    ["/meta-llama/Llama-3.1-8B-Instruct", 200],
    ["/alice/carded", 200],
    ["/alice/carded/tree/main", 200],
    ["/alice/carded/blob/main/plot.png", 200],
    ["/no-such/page-at-all/x", 404],
  ] as const)("renders %s with no policy violation", async (path, status) => {
    const page = await harness.newPage();
    const violations = await recordViolations(page);
    const problems = watchPage(page, { expectedStatus: status });
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(await response?.headerValue("content-security-policy")).toMatch(/script-src 'self'/);
    await page.locator("main, [role=main], h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => document.getElementById("root")?.childElementCount)).toBeGreaterThan(0);
    await page.context().close();
  });

  it("renders the signed-in settings pages with no policy violation", async () => {
    const page = await harness.newPage();
    await signIn(page, "alice");
    const violations = await recordViolations(page);
    const problems = watchPage(page, { expectedStatus: 200 });
    for (const path of ["/settings/profile", "/settings/tokens", "/new", "/alice/carded/upload/main"]) {
      await page.goto(path);
      await page.locator("h1").first().waitFor();
      await page.waitForLoadState("networkidle");
    }
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("loads a card's images from the hub and the allowed site, and shows the tracker's as a link", async () => {
    const page = await harness.newPage();
    const violations = await recordViolations(page);
    await page.goto("/alice/carded");
    const hubImage = page.getByRole("img", { name: "from the hub" });
    const allowedImage = page.getByRole("img", { name: "from an allowed site" });
    await hubImage.waitFor();
    await expect
      .poll(() => hubImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await expect
      .poll(() => allowedImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    const link = page.getByRole("link", { name: /tracking pixel \(image on 127\.0\.0\.1:\d+\)/ });
    expect(await link.getAttribute("href")).toBe(`${tracker.origin}/pixel.png?reader=you`);
    await page.waitForLoadState("networkidle");
    expect(tracker.requests).toEqual([]);
    expect(allowed.requests).toContain("/allowed.png");
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it("blocks what an injected script or image would do", async () => {
    const page = await harness.newPage();
    const violations = await recordViolations(page);
    await page.goto("/models");
    await page.locator("h1").first().waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.head.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await page.evaluate((origin) => {
      const img = document.createElement("img");
      img.src = `${origin}/injected.png`;
      document.body.append(img);
    }, tracker.origin);
    await expect
      .poll(violations)
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^script-src/),
          `img-src ${tracker.origin}/injected.png`,
        ]),
      );
    expect(tracker.requests).toEqual([]);
    await page.context().close();
  });
});
