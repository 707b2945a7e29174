/**
 * Cold first call in a browser: a fresh Chromium (playwright-core, /usr/bin/chromium) per run loads a page
 * that imports the generator's browser bundle (esbuild, platform browser, not minified) and makes its first
 * call, timed inside the page with performance.now() from before the import to after the call returns.
 * Bundles are served from loopback with no caching; each run is a new browser process, so nothing compiled
 * by an earlier run is reused.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { benchDir } from "./cold.js";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export interface BrowserColdResult {
  importMs: number;
  firstCallMs: number;
  totalMs: number;
  snippets: number;
  /**
   * The page's JavaScript time (Chrome's Performance.getMetrics ScriptDuration: compiling and running the
   * page's scripts, the bundle's import and call among them): what the page's own waits do not count.
   */
  scriptMs: number;
}

/** Bundles `contents` for browsers (node: builtins left out: the generators do not need them). */
export async function browserBundle(contents: string, outfile: string): Promise<string> {
  await build({
    stdin: { contents, resolveDir: benchDir, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["source"],
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

function serve(files: Map<string, string>): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const file = files.get(path);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      "content-type": path.endsWith(".html") ? "text/html" : "text/javascript",
      "cache-control": "no-store",
    });
    response.end(path.endsWith(".html") ? file : readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const PAGE = `<!doctype html><html><body><script type="module">
const args = JSON.parse(new URLSearchParams(location.search).get("args"));
const mode = new URLSearchParams(location.search).get("mode");
const start = performance.now();
const mod = await import("/generator.js");
const imported = performance.now();
const generate = mode === "ours" ? mod.getInferenceSnippets : mod.snippets.getInferenceSnippets;
const snippets = generate(...args.map((v) => (v === null ? undefined : v)));
const done = performance.now();
window.result = { importMs: imported - start, firstCallMs: done - imported, totalMs: done - start, snippets: snippets.length };
</script></body></html>`;

/** One cold run: a new browser, one page, the bundle imported and called once. */
export async function browserColdRun(
  mode: "ours" | "theirs",
  bundleFile: string,
  args: unknown[],
): Promise<BrowserColdResult> {
  const server = await serve(
    new Map([
      ["/index.html", PAGE],
      ["/generator.js", bundleFile],
    ]),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const { port } = server.address() as AddressInfo;
    const query = new URLSearchParams({ mode, args: JSON.stringify(args) });
    await page.goto(`http://127.0.0.1:${port}/index.html?${query}`);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, null, {
      timeout: 30_000,
    });
    const { metrics } = await cdp.send("Performance.getMetrics");
    const script = metrics.find((metric) => metric.name === "ScriptDuration")?.value ?? Number.NaN;
    const result = (await page.evaluate(
      () => (window as unknown as { result: Omit<BrowserColdResult, "scriptMs"> }).result,
    )) as Omit<BrowserColdResult, "scriptMs">;
    return { ...result, scriptMs: script * 1000 };
  } finally {
    await browser.close();
    server.close();
  }
}
