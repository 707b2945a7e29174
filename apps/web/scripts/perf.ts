/**
 * Performance of the production build, measured in Chromium against a real hub on loopback:
 *   - JavaScript the model page loads (gzipped size of every script it fetches), against 150 KB;
 *   - largest contentful paint of cold loads (fresh context, empty cache), against 1 s;
 *   - time from switching provider or language in the snippet panel to the committed re-render
 *     (the panel's own performance marks), against 16 ms.
 * Run: npm run perf -w apps/web   (builds apps/web/dist first when it is stale)
 *      npm run perf -w apps/web -- --cpu-throttle 4   (the CPU slowed 4x through the DevTools protocol)
 *      npm run perf -w apps/web -- --dist /tmp/before   (measures that build as it is: before/after figures)
 * The JavaScript figure is what the hub sent: the bytes on the wire with their Content-Encoding (brotli from the
 * build's precompressed copies), and the gzip size of the same files for comparison.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { buildWebIfStale, WEB_DIST } from "../e2e/build-web.js";
import { startWebHarness } from "../e2e/harness.js";
import { largestContentfulPaint } from "../e2e/page-checks.js";

const { values: options } = parseArgs({
  options: { "cpu-throttle": { type: "string", default: "1" }, dist: { type: "string" } },
});
const DIST = options.dist ?? WEB_DIST;
const CPU_THROTTLE = Number(options["cpu-throttle"]);
if (!(CPU_THROTTLE >= 1))
  throw new Error(`--cpu-throttle wants a rate of 1 or more, got ${options["cpu-throttle"]}`);

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const COLD_LOADS = 7;
const SWITCHES = 20;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ??
  Number.NaN;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Script {
  path: string;
  encoding: string;
  wireBytes: number;
}

/** The scripts a cold load of `path` fetches, with the bytes the hub sent for each. */
async function scriptsOf(page: Page, path: string): Promise<Script[]> {
  const pending: Promise<Script>[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith(".js") || !url.pathname.startsWith("/assets/")) return;
    pending.push(
      response
        .request()
        .sizes()
        .then((sizes) => ({
          path: url.pathname,
          encoding: response.headers()["content-encoding"] ?? "identity",
          wireBytes: sizes.responseBodySize,
        })),
    );
  });
  await page.goto(path, { waitUntil: "networkidle" });
  const scripts = await Promise.all(pending);
  return [...new Map(scripts.map((script) => [script.path, script])).values()];
}

/** Slows the page's CPU `CPU_THROTTLE` times (Chromium's DevTools protocol), as DevTools' "4x slowdown". */
async function throttle(page: Page): Promise<void> {
  if (CPU_THROTTLE === 1) return;
  const session = await page.context().newCDPSession(page);
  await session.send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLE });
}

function gzippedSize(assetPath: string): number {
  return gzipSync(readFileSync(join(DIST, assetPath))).byteLength;
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

if (!options.dist) buildWebIfStale();
const harness = await startWebHarness({ webDist: DIST });
try {
  const page = await harness.newPage();
  const scripts = await scriptsOf(page, `/${MODEL}`);
  const sizes = scripts.map((script) => ({ ...script, gzip: gzippedSize(script.path) }));
  const wire = sizes.reduce((sum, entry) => sum + entry.wireBytes, 0);
  const gzip = sizes.reduce((sum, entry) => sum + entry.gzip, 0);
  const encodings = [...new Set(sizes.map((entry) => entry.encoding))].join(", ");
  console.log(
    `Model page JavaScript (${scripts.length} files): ${kb(wire)} sent (${encodings}), ${kb(gzip)} gzipped (budget 150 KB)`,
  );
  for (const entry of sizes.sort((a, b) => b.wireBytes - a.wireBytes))
    console.log(`  ${kb(entry.wireBytes).padStart(9)} ${entry.encoding.padEnd(8)} ${entry.path}`);

  for (const [name, path, ready] of [
    ["model page", `/${MODEL}`, "#root article"],
    ["models list", "/models", "#root main ul a"],
  ] as const) {
    const paints: number[] = [];
    for (let run = 0; run < COLD_LOADS; run++) {
      const cold = await harness.newPage();
      await throttle(cold);
      paints.push(await largestContentfulPaint(cold, path, () => cold.locator(ready).first().waitFor()));
      await cold.context().close();
    }
    console.log(
      `LCP ${name}, ${COLD_LOADS} cold loads, CPU ${CPU_THROTTLE}x slower: median ${median(paints).toFixed(0)} ms, max ${Math.max(...paints).toFixed(0)} ms (budget 1000 ms)`,
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
