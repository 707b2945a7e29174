import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARD_TIME_LIMIT_MS } from "../src/features/model-page/card-in-worker.js";
import { startWebHarness, type WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";

// The hub writes a model card page's first view into the page it serves (apps/hub/src/http/first-view.ts):
// the card's opening paints before any script runs, and the app takes over in one commit without painting
// anything larger (the page's largest contentful paint stays the first view's).
const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

let harness: WebHarness;
beforeAll(async () => {
  harness = await startWebHarness();
}, 120_000);
afterAll(() => harness?.close());

/** Each block of the card as tag, classes and text: what decides the boxes its text paints in. */
function cardBlocks(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(`${selector} > *`)
    .evaluateAll((blocks) =>
      blocks.map((block) => `${block.tagName} ${block.className} | ${block.textContent?.trim()}`),
    );
}

describe("a model card page's first view", () => {
  it("shows the model and its card's opening without any script", async () => {
    const context = await harness.browser.newContext({ baseURL: harness.hub.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`/${MODEL}`);
      await expect(page.title()).resolves.toBe(`${MODEL} · Modelhub`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(MODEL);
      const article = page.getByRole("article", { name: "Model card" });
      await expect(article.locator("p").first().isVisible()).resolves.toBe(true);
      // The app's root is hidden while the first view is there: the page is never shown twice.
      expect(await page.locator("#root").isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  for (const colorScheme of ["light", "dark"] as const) {
    it(`is replaced by the app in one commit, which paints nothing larger (${colorScheme})`, async () => {
      // The first view's blocks, as served.
      const still = await harness.browser.newContext({
        baseURL: harness.hub.url,
        javaScriptEnabled: false,
        colorScheme,
      });
      const served = await still.newPage();
      await served.goto(`/${MODEL}`);
      const firstBlocks = await cardBlocks(served, "#first-view article > div");
      await still.close();

      const page = await harness.newPage({ colorScheme });
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto(`/${MODEL}`);
      await page.locator("#root article p").first().waitFor();
      expect(await page.locator("#first-view").count()).toBe(0);
      const appBlocks = await cardBlocks(page, "#root article > div");
      // The same blocks, classes and text as the app renders them (the first view may stop earlier).
      expect(firstBlocks.length).toBeGreaterThan(2);
      expect(appBlocks.slice(0, firstBlocks.length)).toEqual(firstBlocks);
      const paints = await page.evaluate(
        () =>
          new Promise<{ connected: boolean; tag?: string }[]>((resolve) => {
            new PerformanceObserver((list) => {
              resolve(
                list.getEntries().map((entry) => {
                  const element = (entry as PerformanceEntry & { element: Element | null }).element;
                  return { connected: Boolean(element?.isConnected), tag: element?.tagName };
                }),
              );
            }).observe({ type: "largest-contentful-paint", buffered: true });
          }),
      );
      // The largest paint is the first view's, whose element the app removed: nothing of the app's was larger.
      expect(paints.at(-1)?.connected).toBe(false);
      expect(problems).toEqual([]);
    });
  }
});

describe("a model card page whose card parser is slow to load", () => {
  it("shows the card as Markdown, not as a card the parser could not finish", async () => {
    const page = await harness.newPage();
    const problems = watchPage(page, { expectedStatus: 200 });
    // The worker's code (the Markdown parser) arrives after the card's whole time limit, as on a slow
    // connection or a busy phone: the limit is for parsing the card, not for loading the parser.
    await page.route(/\/assets\/card-worker-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, CARD_TIME_LIMIT_MS + 1000));
      await route.continue();
    });
    await page.goto(`/${MODEL}`);
    const article = page.locator("#root").getByRole("article", { name: "Model card" });
    // A heading only the parsed card has: the plain-text fallback shows "## Intended uses" as text.
    await article.getByRole("heading", { name: "Intended uses" }).waitFor();
    expect(await article.getByText(/shown as plain text/).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
