import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { hubWithOwner } from "./repo-users.js";

// A 2 GiB file uploaded from the upload page: the tab must stay responsive (hashing runs in a worker, the
// PUT streams the File from disk) and its memory flat (the file is never read whole into the page). Opt-in:
// MODELHUB_PERF=1 npx vitest run apps/web/e2e/upload-perf.test.ts
const SIZE = Number(process.env.UPLOAD_PERF_BYTES ?? 2 * 1024 * 1024 * 1024);
const MiB = 1024 * 1024;

let harness: WebHarness;
let page: Page;
let scratch: string;
let bigFile: string;

beforeAll(async () => {
  if (!process.env.MODELHUB_PERF) return;
  ({ harness, page } = await hubWithOwner("kim", ["big"]));
  scratch = mkdtempSync(join(tmpdir(), "modelhub-upload-perf-"));
  bigFile = join(scratch, "model.bin");
  // A sparse file: 2 GiB to every reader, no disk blocks (and no time) to make.
  writeFileSync(bigFile, "");
  const fd = openSync(bigFile, "r+");
  try {
    ftruncateSync(fd, SIZE);
  } finally {
    closeSync(fd);
  }
}, 120_000);
afterAll(async () => {
  await harness?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Resident memory of every renderer process (the page and its workers run there), in bytes. */
async function rendererRss(browserSession: CDPSession): Promise<number> {
  const { processInfo } = (await browserSession.send("SystemInfo.getProcessInfo")) as {
    processInfo: Array<{ type: string; id: number }>;
  };
  let total = 0;
  for (const process of processInfo.filter((info) => info.type === "renderer")) {
    try {
      const status = readFileSync(`/proc/${process.id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // A renderer that just ended.
    }
  }
  return total;
}

describe.skipIf(!process.env.MODELHUB_PERF)("a 2 GiB upload from the page", () => {
  it(
    "keeps the tab responsive and its memory flat",
    async () => {
      await page.addInitScript(() => {
        const state = window as unknown as { __longest: number; __lag: number };
        state.__longest = 0;
        state.__lag = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) state.__longest = Math.max(state.__longest, entry.duration);
        }).observe({ type: "longtask", buffered: true });
        // A 100 ms timer: how late it fires is how long the page could not answer a click.
        let last = performance.now();
        setInterval(() => {
          const now = performance.now();
          state.__lag = Math.max(state.__lag, now - last - 100);
          last = now;
        }, 100);
      });
      await page.goto("/kim/big/upload/main");
      await page.getByTestId("files-input").setInputFiles(bigFile);
      await page.getByLabel("Commit title").fill("A 2 GiB file from the browser");
      const pageSession = await page.context().newCDPSession(page);
      await pageSession.send("Performance.enable");
      const browserSession = await harness.browser.newBrowserCDPSession();
      const sample = async () => {
        const { metrics } = (await pageSession.send("Performance.getMetrics")) as {
          metrics: Array<{ name: string; value: number }>;
        };
        const heap = metrics.find((metric) => metric.name === "JSHeapUsedSize")?.value ?? 0;
        return { heap, rss: await rendererRss(browserSession) };
      };
      const before = await sample();
      const started = Date.now();
      await page.getByRole("button", { name: "Commit changes" }).click();
      const samples: Array<{ at: number; heap: number; rss: number }> = [];
      const done = page.waitForURL("**/kim/big/tree/main", { timeout: 30 * 60_000 });
      let finished = false;
      void done.then(() => {
        finished = true;
      });
      while (!finished) {
        samples.push({ at: Date.now() - started, ...(await sample()) });
        await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 1000))]);
      }
      await done;
      const seconds = (Date.now() - started) / 1000;
      const { longest, lag } = await page.evaluate(() => {
        const state = window as unknown as { __longest: number; __lag: number };
        return { longest: state.__longest, lag: state.__lag };
      });
      const peakHeap = Math.max(...samples.map((s) => s.heap));
      const peakRss = Math.max(...samples.map((s) => s.rss));
      const every = Math.max(1, Math.floor(samples.length / 12));
      console.log(
        [
          `${(SIZE / MiB).toFixed(0)} MiB uploaded and committed from the page in ${seconds.toFixed(1)} s`,
          `before: JS heap ${(before.heap / MiB).toFixed(1)} MiB, renderer RSS ${(before.rss / MiB).toFixed(0)} MiB`,
          ...samples
            .filter((_, index) => index % every === 0)
            .map(
              (s) =>
                `  ${(s.at / 1000).toFixed(0).padStart(4)} s  JS heap ${(s.heap / MiB).toFixed(1).padStart(6)} MiB  renderer RSS ${(s.rss / MiB).toFixed(0).padStart(5)} MiB`,
            ),
          `peak: JS heap ${(peakHeap / MiB).toFixed(1)} MiB, renderer RSS ${(peakRss / MiB).toFixed(0)} MiB`,
          `longest task ${Math.round(longest)} ms, largest timer delay ${Math.round(lag)} ms`,
        ].join("\n"),
      );
      const info = await page.request.post("/api/models/kim/big/paths-info/main", {
        data: { paths: ["model.bin"] },
        headers: {
          "X-CSRF-Token": (
            (await (await page.request.get("/api/auth/session")).json()) as { csrfToken: string }
          ).csrfToken,
        },
      });
      expect(((await info.json()) as Array<{ size: number }>)[0]?.size).toBe(SIZE);
      // Flat: the page never holds the file (2,048 MiB); what it gains is buffers, not the content.
      expect(peakHeap - before.heap).toBeLessThan(64 * MiB);
      expect(peakRss - before.rss).toBeLessThan(256 * MiB);
      expect(longest).toBeLessThan(200);
    },
    40 * 60_000,
  );
});
