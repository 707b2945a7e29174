import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";

let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness();
});
afterAll(() => harness?.close());

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));
const canvas = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const DARK_CANVAS = "rgb(11, 16, 32)";
const LIGHT_CANVAS = "rgb(248, 250, 252)";

describe("theme", () => {
  it("keeps the choice in localStorage `theme` and paints it before any script of the app runs", async () => {
    const page = await harness.newPage({ colorScheme: "light" });
    await page.goto("/models");
    expect(await isDark(page)).toBe(false);

    await page.getByRole("radio", { name: "Dark theme" }).check();
    await expect.poll(() => isDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

    // With the app's JavaScript blocked, only the theme script index.html loads first (/theme.js) can apply it:
    // the page is dark from its first paint, so there is no light flash.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    expect(await isDark(page)).toBe(true);
    expect(await canvas(page)).toBe(DARK_CANVAS);
    await page.unroute("**/assets/*.js");

    // And with the app running, the switcher shows the stored choice.
    await page.reload();
    await expect.poll(() => page.getByRole("radio", { name: "Dark theme" }).isChecked()).toBe(true);
  });

  it("follows the system setting, live, when the choice is system", async () => {
    const page = await harness.newPage({ colorScheme: "dark" });
    await page.goto("/models");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
    expect(await isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => isDark(page)).toBe(false);
    expect(await canvas(page)).toBe(LIGHT_CANVAS);

    await page.getByRole("radio", { name: "Light theme" }).check();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });
});
