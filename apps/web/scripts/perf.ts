/**
 * Performance of the production build, measured in Chromium against a real hub on loopback:
 *   - JavaScript the model page loads (gzipped size of every script it fetches), against 150 KB;
 *   - largest contentful paint of cold loads (fresh context, empty cache), against 1 s;
 *   - time from switching provider or language in the snippet panel to the committed re-render
 *     (the panel's own performance marks), against 16 ms.
 * Run: npm run perf -w apps/web   (builds apps/web/dist first when it is stale)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { buildWebIfStale, WEB_DIST } from "../e2e/build-web.js";
import { startWebHarness } from "../e2e/harness.js";
import { largestContentfulPaint } from "../e2e/page-checks.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const COLD_LOADS = 7;
const SWITCHES = 20;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ??
  Number.NaN;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function scriptsOf(page: Page, path: string): Promise<string[]> {
  const scripts: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith(".js") && url.pathname.startsWith("/assets/")) scripts.push(url.pathname);
  });
  await page.goto(path, { waitUntil: "networkidle" });
  return [...new Set(scripts)];
}

function gzippedSize(assetPath: string): number {
  return gzipSync(readFileSync(join(WEB_DIST, assetPath))).byteLength;
}

async function switchTimings(page: Page): Promise<{ provider: number[]; language: number[] }> {
  await page.goto(`/${MODEL}/inference?provider=together`);
  await page.getByTestId("inference-snippet").waitFor();
  const measures = async (run: () => Promise<void>) => {
    await page.evaluate(() => performance.clearMeasures("snippet-panel:update"));
    await run();
    await page.waitForTimeout(50);
    return page.evaluate(() =>
      performance.getEntriesByName("snippet-panel:update", "measure").map((entry) => entry.duration),
    );
  };
  const providers = ["together", "cerebras", "fireworks-ai", "nebius"];
  const provider = await measures(async () => {
    for (let index = 0; index < SWITCHES; index++) {
      await page.getByRole("combobox", { name: "Provider" }).click();
      await page
        .getByRole("option")
        .nth(index % providers.length)
        .click();
      await page.waitForTimeout(30);
    }
  });
  const language = await measures(async () => {
    const tabs = ["Python", "JavaScript", "cURL"];
    for (let index = 0; index < SWITCHES; index++) {
      await page.getByRole("tab", { name: tabs[index % tabs.length] }).click();
      await page.waitForTimeout(30);
    }
  });
  return { provider, language };
}

buildWebIfStale();
const harness = await startWebHarness();
try {
  const page = await harness.newPage();
  const scripts = await scriptsOf(page, `/${MODEL}`);
  const sizes = scripts.map((script) => ({ script, gzip: gzippedSize(script) }));
  const total = sizes.reduce((sum, entry) => sum + entry.gzip, 0);
  console.log(`Model page JavaScript (${scripts.length} files): ${kb(total)} gzipped (budget 150 KB)`);
  for (const { script, gzip } of sizes.sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${kb(gzip).padStart(9)}  ${script}`);

  for (const [name, path, ready] of [
    ["model page", `/${MODEL}`, "article"],
    ["models list", "/models", "main ul a"],
  ] as const) {
    const paints: number[] = [];
    for (let run = 0; run < COLD_LOADS; run++) {
      const cold = await harness.newPage();
      paints.push(await largestContentfulPaint(cold, path, () => cold.locator(ready).first().waitFor()));
      await cold.context().close();
    }
    console.log(
      `LCP ${name}, ${COLD_LOADS} cold loads: median ${median(paints).toFixed(0)} ms, max ${Math.max(...paints).toFixed(0)} ms (budget 1000 ms)`,
    );
  }

  const timings = await switchTimings(page);
  for (const [name, values] of Object.entries(timings)) {
    console.log(
      `Switch ${name} -> committed re-render, ${values.length} switches: median ${median(values).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (budget 16 ms)`,
    );
  }
} finally {
  await harness.close();
}
