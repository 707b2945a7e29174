import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";

let harness: WebHarness;
let page: Page;
let preview: FrameLocator;
const consoleLines: string[] = [];

beforeAll(async () => {
  harness = await startWebHarness();
  page = await harness.newPage();
  page.on("console", (message) => consoleLines.push(message.text()));
  preview = page.frameLocator('iframe[title="Widget preview"]');
});
afterAll(() => harness?.close());

// Playwright's CSS engine pierces the widget's open shadow root.
const widget = () => preview.locator("modelhub-top-products section.mh");
const items = () => preview.locator("modelhub-top-products li.item");
const embedCode = () => page.getByTestId("embed-code").textContent();

async function open(query = "") {
  await page.goto(`/widget-builder${query}`);
  await expect.poll(() => items().count(), { timeout: 15_000 }).toBeGreaterThan(0);
}

async function setText(label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press("Enter");
}

async function choose(label: string, value: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: value, exact: true }).click();
}

async function slide(label: string, keys: string[]) {
  await page.getByRole("slider", { name: label }).focus();
  for (const key of keys) await page.keyboard.press(key);
}

describe("widget builder", () => {
  it("previews the appearance options: theme, title, direction, products, columns", async () => {
    await open();
    expect(await embedCode()).toBe(`<script src="${harness.hub.url}/widget/top-products.js" async></script>`);
    expect(await items().count()).toBe(6);

    await choose("Theme", "dark");
    await expect.poll(() => widget().getAttribute("data-scheme")).toBe("dark");
    await choose("Theme", "light");
    await expect.poll(() => widget().getAttribute("data-scheme")).toBe("light");

    await setText("Title", "Our picks <b>today</b>");
    await expect
      .poll(() => preview.locator("modelhub-top-products h2.title").textContent())
      .toBe("Our picks <b>today</b>");

    await choose("Direction", "vertical");
    await expect.poll(() => widget().getAttribute("class")).toContain("vertical");

    await slide("Maximum products", ["Home", "ArrowRight"]);
    await expect.poll(() => items().count()).toBe(2);

    await slide("Maximum columns", ["Home", "ArrowRight"]);
    await expect
      .poll(() => widget().evaluate((node) => (node as HTMLElement).style.getPropertyValue("--cols")))
      .toBe("2");

    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      theme: "light",
      title: "Our picks <b>today</b>",
      maxProducts: "2",
      maxColumns: "2",
      direction: "vertical",
    });
    expect(await embedCode()).toContain("maxProducts=2");
  });

  it("previews the product selection: permanent ids in order, one owner's models", async () => {
    await open();
    const ids = ["openai/gpt-oss-20b", "meta-llama/Llama-3.1-8B-Instruct"];
    await setText("Permanent selection", ids.join(", "));
    await expect
      .poll(() =>
        preview
          .locator("modelhub-top-products a.card")
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("title"))),
      )
      .toEqual(ids);

    await setText("Permanent selection", "");
    await setText("Owned by", "meta-llama");
    await expect
      .poll(() =>
        preview
          .locator("modelhub-top-products a.card")
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("title"))),
      )
      .toSatisfy(
        (titles: unknown) =>
          Array.isArray(titles) &&
          titles.length > 0 &&
          titles.every((title) => String(title).startsWith("meta-llama/")),
      );
  });

  it("previews every layout flag", async () => {
    await open();
    const WIDGET = "modelhub-top-products";
    /** An absent title or footer counts only once the widget shows its cards. */
    const rendered = async () => (await preview.locator(`${WIDGET} a.card`).count()) > 0;
    const checks: Array<[label: string, effect: () => Promise<boolean>]> = [
      ["No border", async () => (await widget().getAttribute("class"))?.includes("no-border") ?? false],
      ["No shadow", async () => (await widget().getAttribute("class"))?.includes("no-shadow") ?? false],
      ["No padding", async () => (await widget().getAttribute("class"))?.includes("no-padding") ?? false],
      [
        "No title",
        async () => (await rendered()) && (await preview.locator(`${WIDGET} h2.title`).count()) === 0,
      ],
      [
        "No credits",
        async () => (await rendered()) && (await preview.locator(`${WIDGET} footer.credits`).count()) === 0,
      ],
      [
        "Open links in the same tab",
        async () =>
          (await preview.locator("modelhub-top-products a.card").first().getAttribute("target")) === null,
      ],
    ];
    for (const [label, effect] of checks) {
      // The preview re-renders after each flag: wait for it to show this flag off before turning it on.
      await expect.poll(effect).toBe(false);
      await page.getByRole("checkbox", { name: label }).check();
      await expect.poll(effect).toBe(true);
    }
    const code = (await embedCode()) ?? "";
    for (const flag of ["noBorder", "noShadow", "noTitle", "noCredits", "noPadding", "openSelf"]) {
      expect(code).toMatch(new RegExp(`[?;]${flag}(&|")`));
      expect(new URL(page.url()).searchParams.has(flag)).toBe(true);
    }
  });

  it("previews the embedding and development options: container, version, debug, devMode and hub", async () => {
    await open();
    await setText("Container element id", "top-models");
    await expect.poll(embedCode).toContain('<div id="top-models"></div>');
    await expect
      .poll(() => preview.locator("div#top-models modelhub-top-products li.item").count())
      .toBeGreaterThan(0);

    await setText("Script version", "1");
    await expect.poll(embedCode).toContain("version=1");
    await expect.poll(() => items().count()).toBeGreaterThan(0);

    consoleLines.length = 0;
    await page.getByRole("checkbox", { name: "Debug logging" }).check();
    await expect.poll(() => consoleLines.some((line) => line.includes("[modelhub-widget]"))).toBe(true);

    // devMode with the hub option: data comes from that hub (here: this one, under another name), and its
    // links from that hub's configured public URL, never from the name it was reached by.
    const altHub = harness.hub.url.replace("127.0.0.1", "localhost");
    await page.getByRole("checkbox", { name: "Development mode" }).check();
    await setText("Development hub URL", altHub);
    await expect.poll(() => new URL(page.url()).searchParams.get("hub")).toBe(altHub);
    expect(await embedCode()).toMatch(/[?;]devMode&amp;hub=http%3A\/\/localhost%3A\d+(&amp;|")/);
    await expect
      .poll(() => preview.locator("modelhub-top-products a.card").first().getAttribute("href"))
      .toMatch(new RegExp(`^${harness.hub.publicUrl}/`));
  });

  it("applies text options as the reader types, and a click right after typing is not lost", async () => {
    await open();
    const owned = page.getByLabel("Owned by", { exact: true });
    await owned.click();
    await owned.pressSequentially("meta-llama", { delay: 5 });
    // No Enter, no blur first: the checkbox click comes straight after the last keystroke.
    await page.getByRole("checkbox", { name: "No credits" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("owned")).toBe("meta-llama");
    expect(new URL(page.url()).searchParams.has("noCredits")).toBe(true);
    expect(await page.getByRole("checkbox", { name: "No credits" }).isChecked()).toBe(true);
    await expect.poll(embedCode).toContain("owned=meta-llama");

    await page.getByLabel("Title", { exact: true }).fill("Typed, not committed");
    await expect.poll(embedCode).toContain("Typed");
  });
});
