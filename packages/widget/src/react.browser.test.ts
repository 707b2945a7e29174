/** <TopProductsWidget> in a real React app (StrictMode) in chromium, against a hub on another origin. */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOP_PRODUCTS } from "./__fixtures__/products.js";
import {
  type HostSite,
  hostPage,
  launchChromium,
  startHostSite,
  startHub,
  type TestHub,
} from "./testing/embed-harness.js";
import { readWidget, waitForWidgets } from "./testing/widget-page.js";

let browser: Browser;
let hub: TestHub;
let site: HostSite;
let page: Page;
const errors: Error[] = [];

async function bundleReactHost(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./__fixtures__/react-host.tsx", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    jsx: "automatic",
    minify: true,
    logLevel: "silent",
    // Development React: StrictMode runs every effect twice, as in a React host's dev server.
    define: { "process.env.NODE_ENV": '"development"' },
  });
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  let bundle: string;
  [browser, hub, site, bundle] = await Promise.all([
    launchChromium(),
    startHub(TOP_PRODUCTS),
    startHostSite(),
    bundleReactHost(),
  ]);
  const app = site.file(bundle, "text/javascript");
  page = await browser.newPage();
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(
    site.page(
      hostPage({
        body: `<div id="root"></div><script>window.hubUrl = ${JSON.stringify(hub.url)}</script><script src="${app}"></script>`,
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([hub?.close(), site?.close()]);
}, 30_000);

const hostCount = () => page.locator("modelhub-top-products").count();

describe("TopProductsWidget", { timeout: 60_000 }, () => {
  it("loads the script with its typed options, once despite StrictMode's double effects", async () => {
    await waitForWidgets(page, 1);
    const state = await readWidget(page, ".widget-holder modelhub-top-products");
    expect(state.names).toEqual(["Llama-3.1-8B-Instruct", "whisper-large-v3"]);
    expect(state.scheme).toBe("dark");
    expect(state.classes).toContain("vertical");
    expect(state.credits).toBeNull();
    expect(await page.locator(".widget-holder").getAttribute("data-modelhub-widget-src")).toBe(
      `${hub.url}/widget/top-products.js?theme=dark&maxProducts=2&direction=vertical&noCredits`,
    );
    expect(await hostCount()).toBe(1);
  });

  it("reloads the widget when an option changes", async () => {
    await page.evaluate(() => window.setMaxProducts(3));
    await page.waitForFunction(
      () =>
        document.querySelector("modelhub-top-products")?.shadowRoot?.querySelectorAll(".card").length === 3,
    );
    expect(await hostCount()).toBe(1);
    expect((await readWidget(page)).names).toHaveLength(3);
  });

  it("removes the widget on unmount, without errors", async () => {
    await page.evaluate(() => window.hideWidget());
    await page.waitForFunction(() => document.querySelector("modelhub-top-products") === null);
    expect(await page.locator("script[src*='/widget/top-products.js']").count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
