import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, popoversOutsideViewport, severeAxeFindings, watchPage } from "./page-checks.js";
import { ALL_PAGES } from "./pages.js";
import { SEED_ADMIN_TOKEN, seedRepoPages } from "./repo-seed.js";

/**
 * Every page at a desktop and a phone width, in both themes: no sideways scroll, every popover, menu and
 * select inside the viewport, no console error, no failed request, its own title, and no serious or
 * critical axe finding (all rules in the light theme; the colour rules in the dark one, as the themes
 * share one DOM).
 */
const VIEWPORTS = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

let harness: WebHarness;
let browser: Browser;
beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN });
  browser = harness.browser;
  // The dataset, space and user pages need a dataset, a space and a user.
  await seedRepoPages(harness);
});
afterAll(() => harness?.close());

describe.each(VIEWPORTS)("every page on a $name ($width px)", (viewport) => {
  it.each(ALL_PAGES)("$name, light then dark", async ({ path, ready, title, status }) => {
    const context = await browser.newContext({
      baseURL: harness.hub.url,
      colorScheme: "light",
      viewport: { width: viewport.width, height: viewport.height },
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const problems = watchPage(page, { expectedStatus: status });
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      await ready(page);
      expect(await page.title()).toBe(title);
      expect(await isDark(page)).toBe(false);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await popoversOutsideViewport(page)).toEqual([]);
      expect(await severeAxeFindings(page, "light")).toEqual([]);
      // The dark theme is the same DOM in other colours, and the app follows the system setting live
      // (use-theme.ts): the setting changes under the open page, so the dark pass needs no second load
      // (which cost CI about three minutes). A first load in dark, without a flash, is theme.test.ts's.
      await page.emulateMedia({ colorScheme: "dark" });
      await expect.poll(() => isDark(page)).toBe(true);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await severeAxeFindings(page, "dark")).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

describe("titles", () => {
  it("differ from page to page (two addresses of the not-found page share one)", () => {
    const titles = new Set(ALL_PAGES.map((page) => page.title));
    expect(titles.size).toBe(ALL_PAGES.length - 1);
  });
});

describe("the models list", () => {
  it("says how many models match, not how many are shown", async () => {
    const page = await harness.newPage();
    for (const query of ["", "?task=text-to-image", "?search=llama"]) {
      const api = new URLSearchParams(query);
      const task = api.get("task");
      const answer = await fetch(
        `${harness.hub.url}/api/models?limit=1${task ? `&pipeline_tag=${task}` : ""}${api.get("search") ? `&search=${api.get("search")}` : ""}`,
      );
      const total = Number(answer.headers.get("x-total-count"));
      expect(total).toBeGreaterThan(0);
      await page.goto(`/models${query}`);
      await expect
        .poll(() => page.getByText(/^[\d,]+ models?$/).textContent())
        .toBe(`${total.toLocaleString("en")} ${total === 1 ? "model" : "models"}`);
    }
    await page.context().close();
  });
});
