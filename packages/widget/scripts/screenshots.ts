/**
 * Renders the widget in chromium against a local hub with the fixture ranking and saves
 * docs/widget/{light,dark}-{horizontal,vertical}.png. Run: npm run screenshots -w packages/widget
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TOP_PRODUCTS } from "../src/__fixtures__/products.js";
import { hostPage, launchChromium, startHostSite, startHub } from "../src/testing/embed-harness.js";
import { waitForWidgets } from "../src/testing/widget-page.js";

const OUTPUT = fileURLToPath(new URL("../../../docs/widget/", import.meta.url));

const SHOTS = [
  { name: "light-horizontal", scheme: "light", width: 900, query: "" },
  { name: "dark-horizontal", scheme: "dark", width: 900, query: "" },
  { name: "light-vertical", scheme: "light", width: 420, query: "direction=vertical&maxProducts=5" },
  { name: "dark-vertical", scheme: "dark", width: 420, query: "direction=vertical&maxProducts=5" },
] as const;

mkdirSync(OUTPUT, { recursive: true });
const [browser, hub, site] = await Promise.all([launchChromium(), startHub(TOP_PRODUCTS), startHostSite()]);
try {
  for (const shot of SHOTS) {
    const context = await browser.newContext({
      colorScheme: shot.scheme,
      viewport: { width: shot.width + 48, height: 600 },
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const background = shot.scheme === "dark" ? "#020617" : "#f1f5f9";
    const src = `${hub.url}/widget/top-products.js${shot.query ? `?${shot.query}` : ""}`;
    await page.goto(
      site.page(
        hostPage({
          css: `body{margin:0;background:${background}} #frame{padding:24px;width:${shot.width}px}`,
          body: `<div id="frame"><script src="${src.replace(/&/g, "&amp;")}" async></script></div>`,
        }),
      ),
    );
    await waitForWidgets(page);
    const path = `${OUTPUT}${shot.name}.png`;
    await page.locator("#frame").screenshot({ path });
    console.log(`saved ${path}`);
    await context.close();
  }
} finally {
  await browser.close();
  await Promise.all([hub.close(), site.close()]);
}
