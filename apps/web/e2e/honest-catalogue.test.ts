import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { CHAT_MODEL, GGUF_MODEL } from "./pages.js";
import { hubWithOwner, signIn } from "./repo-users.js";

// Issue 38, item 1: the demo catalogue looked real. A demo copy's page now says what it is, with
// huggingface.co's figures labelled as that site's (this hub's own counters apart); no date made up from the
// day the copy was made; GGUF sizes and the Library tab honest about weights that are not here; a dataset's
// downloads counted as the public hub counts them. At 1366 and 390 px, light and dark.
const SIZES = [
  { viewport: { width: 1366, height: 900 }, colorScheme: "light" as const },
  { viewport: { width: 1366, height: 900 }, colorScheme: "dark" as const },
  { viewport: { width: 390, height: 844 }, colorScheme: "light" as const },
  { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const },
];
const OWNER = "ada";
const DATASET = `${OWNER}/station-readings`;
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

let harness: WebHarness;
let owner: Page;

beforeAll(async () => {
  let csrf: string;
  ({ harness, page: owner, csrf } = await hubWithOwner(OWNER, []));
  const created = await owner.request.post("/api/repos/create", {
    data: { name: "station-readings", organization: OWNER, type: "dataset" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(created.status()).toBe(200);
  const lines = [
    { key: "header", value: { summary: "Readings" } },
    {
      key: "file",
      value: {
        path: "data/train.csv",
        content: Buffer.from("t,v\n1,2\n").toString("base64"),
        encoding: "base64",
      },
    },
  ];
  const commit = await owner.request.post(`/api/datasets/${DATASET}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(commit.status()).toBe(200);
  // Three files fetched by one client within 5 minutes (GET and HEAD): one download, as the public hub counts.
  for (const method of ["GET", "HEAD", "GET"] as const) {
    const response = await owner.request.fetch(`/datasets/${DATASET}/resolve/main/data/train.csv`, {
      method,
    });
    expect(response.status()).toBe(200);
  }
});
afterAll(async () => {
  await harness?.close();
});

async function checkPage(page: Page, colorScheme: "light" | "dark") {
  expect(await severeAxeFindings(page, colorScheme)).toEqual([]);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
}

describe("an honest catalogue (issue 38, item 1)", () => {
  it.each(SIZES)(
    "says what a demo copy is and counts only this hub's downloads ($viewport.width px, $colorScheme)",
    async (size) => {
      const page = await harness.newPage(size);
      await signIn(page, OWNER);
      const problems = watchPage(page, { expectedStatus: 200 });
      const figures = await harness.hub.store.engagement.sourceFigures(CHAT_MODEL);
      expect(figures?.downloads).toBeGreaterThan(0);

      // The model page: a demo copy without weights, the original linked, huggingface.co's figures labelled.
      await page.goto(`/${CHAT_MODEL}`);
      const note = page.getByTestId("demo-copy-note");
      await note.waitFor({ timeout: 40_000 });
      expect(await note.getByRole("link", { name: "the original model" }).getAttribute("href")).toBe(
        `https://huggingface.co/${CHAT_MODEL}`,
      );
      expect(await page.getByTestId("source-figures").textContent()).toBe(
        ` · on huggingface.co: ${compact.format(figures?.downloads ?? 0)} downloads, ${compact.format(figures?.likes ?? 0)} likes`,
      );
      expect(await page.getByTestId("downloads").textContent()).toBe("0");
      await checkPage(page, size.colorScheme);

      // The Library tab says what is missing instead of offering from_pretrained.
      await page.goto(`/${CHAT_MODEL}/libraries/transformers`);
      const missing = page.getByTestId("missing-weights");
      await missing.waitFor();
      expect(await missing.textContent()).toContain("holds no weight files");
      expect(
        await missing.getByRole("link", { name: "the original model's page" }).getAttribute("href"),
      ).toBe(`https://huggingface.co/${CHAT_MODEL}`);
      expect(await page.getByTestId("library-snippet").count()).toBe(0);
      expect(await page.getByText("from_pretrained").count()).toBe(0);
      await checkPage(page, size.colorScheme);

      // The list: no demo copy "updated" the day it was made; a date only where the catalogue sourced one.
      await page.goto("/models?search=Llama-3.1-8B-Instruct");
      const row = page.getByRole("link", { name: new RegExp(`^${CHAT_MODEL}`) }).first();
      await row.waitFor();
      expect(await row.textContent()).not.toMatch(/Updated/);
      const listed = (await (
        await fetch(`${harness.hub.url}/api/models?search=Llama-3.1-8B-Instruct&full=true`)
      ).json()) as Array<{ id: string; createdAt?: string; lastModified?: string }>;
      const record = listed.find((model) => model.id === CHAT_MODEL);
      expect(record?.lastModified).toBeUndefined();
      if (record?.createdAt) expect(await row.textContent()).toMatch(/Created/);
      else expect(await row.textContent()).not.toMatch(/Created/);
      await checkPage(page, size.colorScheme);

      // GGUF files of a demo copy hold no weights, and say so beside their size.
      await page.goto(`/${GGUF_MODEL}`);
      const gguf = page.getByTestId("gguf-files");
      await gguf.waitFor();
      expect(await gguf.textContent()).toMatch(/no weights/);

      // A dataset's downloads: the owner's three requests within 5 minutes are one download.
      await page.goto(`/datasets/${DATASET}`);
      await expect.poll(() => page.getByTestId("downloads").textContent(), { timeout: 20_000 }).toBe("1");
      await checkPage(page, size.colorScheme);
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
