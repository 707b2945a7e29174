import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { largestContentfulPaint } from "./page-checks.js";
import { hubWithOwner } from "./repo-users.js";

// A 10,000-file repository with 1,000 commits: the tree and the history load a page at a time.
const FILES = 10_000;
const COMMITS = 1_000;
let harness: WebHarness;
let page: Page;

async function commit(page: Page, csrf: string, repo: string, lines: unknown[]): Promise<void> {
  const response = await page.request.post(`/api/models/alice/${repo}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
    timeout: 120_000,
  });
  if (!response.ok()) throw new Error(`commit: ${response.status()} ${await response.text()}`);
}

beforeAll(async () => {
  if (!process.env.MODELHUB_PERF) return;
  const owner = await hubWithOwner("alice", ["wide", "deep"]);
  ({ harness, page } = owner);
  const { csrf } = owner;
  const started = Date.now();
  // 1,000 files a commit: the first commit is the oldest of the history.
  const BATCH = 1000;
  for (let start = 0; start < FILES; start += BATCH) {
    await commit(page, csrf, "wide", [
      { key: "header", value: { summary: start === 0 ? "10,000 files" : `Files from ${start}` } },
      ...Array.from({ length: BATCH }, (_, offset) => ({
        key: "file",
        value: {
          path: `data/shard-${String(start + offset).padStart(5, "0")}.txt`,
          content: `row ${start + offset}\n`,
        },
      })),
    ]);
    console.log(`batch ${start}: ${Date.now() - started} ms`);
  }
  // The history: a separate small repository (each commit stores a snapshot of every file).
  for (let index = 0; index < COMMITS; index++) {
    await commit(page, csrf, "deep", [
      { key: "header", value: { summary: `Update counter to ${index}` } },
      { key: "file", value: { path: "counter.txt", content: `${index}\n` } },
    ]);
  }
  console.log(`seeded ${FILES} files and ${COMMITS} commits in ${Date.now() - started} ms`);
}, 600_000);
afterAll(async () => {
  await harness?.close();
});

const ROUNDS = 5;

/**
 * LCP of `ROUNDS` loads of `path`, sorted: first visits (each in a fresh browser context, nothing cached) or
 * repeat visits (one context whose cache a first, unmeasured load filled: the app's code is cached, the data
 * is asked for again).
 */
async function lcps(
  path: string,
  ready: (page: Page) => Promise<unknown>,
  visits: "first" | "repeat",
): Promise<number[]> {
  const figures: number[] = [];
  let shared: Page | undefined;
  if (visits === "repeat") {
    shared = await harness.newPage({ viewport: { width: 1366, height: 900 } });
    await largestContentfulPaint(shared, path, () => ready(shared!));
  }
  for (let round = 0; round < ROUNDS; round++) {
    const page = shared ?? (await harness.newPage({ viewport: { width: 1366, height: 900 } }));
    figures.push(Math.round(await largestContentfulPaint(page, path, () => ready(page))));
    if (!shared) await page.context().close();
  }
  await shared?.context().close();
  return figures.sort((a, b) => a - b);
}

/** Repeat and first visits of `path`, logged; the repeat visits' median is what the goal is about. */
async function measure(label: string, path: string, ready: (page: Page) => Promise<unknown>) {
  const repeat = await lcps(path, ready, "repeat");
  const first = await lcps(path, ready, "first");
  console.log(
    `${label}: LCP repeat visits ${repeat.join(", ")} ms (median ${median(repeat)}); first visits ${first.join(", ")} ms (median ${median(first)})`,
  );
  return { repeat: median(repeat), first: median(first) };
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;

// Seeding takes minutes on a loaded 2-core machine (the hub commits 1,000 files in ~10 s): run on demand with
// MODELHUB_PERF=1 npx vitest run apps/web/e2e/repo-perf.test.ts
describe.skipIf(!process.env.MODELHUB_PERF)("large repositories", () => {
  it("shows the first page of a 10,000-file folder in under 1 s (LCP, median of 5 loads)", async () => {
    // For comparison, a page without repository data measured the same way: what the app's start costs.
    await measure("baseline: the models list", "/models", (page) =>
      page.locator("main ul a").first().waitFor(),
    );
    const { repeat } = await measure(`tree of ${FILES} files`, "/alice/wide/tree/main/data", (page) =>
      page.getByTestId("file-tree").locator("tbody tr").nth(99).waitFor(),
    );
    expect(repeat).toBeLessThan(1000);
    await page.goto("/alice/wide/tree/main/data");
    const rows = page.getByTestId("file-tree").locator("tbody tr");
    await rows.nth(99).waitFor();
    expect(await rows.count()).toBe(100);
    // The last commits arrive in a second call and fill in.
    await expect.poll(() => rows.nth(0).textContent()).toContain("10,000 files");
    await page.getByRole("button", { name: "Show more files" }).click();
    await expect.poll(() => rows.count()).toBe(200);
  }, 180_000);

  it("shows a page of a 1,000-commit history in under 1 s (LCP) and pages to the oldest", async () => {
    const newest = await measure(`history of ${COMMITS} commits`, "/alice/deep/commits/main", (page) =>
      page.getByTestId("commit-list").getByRole("listitem").nth(49).waitFor(),
    );
    expect(newest.repeat).toBeLessThan(1000);
    const oldest = await measure("history page 20 (oldest)", "/alice/deep/commits/main?p=19", (page) =>
      page.getByTestId("commit-list").getByText("Update counter to 0", { exact: true }).waitFor(),
    );
    expect(oldest.repeat).toBeLessThan(1000);
    const file = await measure(
      "history of one file, page 20",
      "/alice/deep/commits/main/counter.txt?p=19",
      (page) => page.getByTestId("commit-list").getByText("Update counter to 0", { exact: true }).waitFor(),
    );
    expect(file.repeat).toBeLessThan(1000);
  }, 240_000);
});
