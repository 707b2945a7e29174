import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { CHAT_MODEL } from "./pages.js";
import { createRepo, signIn, signUp } from "./repo-users.js";

// Issue 38, items 1 and 7: this hub's own counters, likes by its users and a landing page. alice (desktop,
// light) owns alice/liked-model; bob (phone, dark) likes it; the landing page is read at both sizes.
const MODEL = "alice/liked-model";
const SIZES = [
  { viewport: { width: 1366, height: 900 }, colorScheme: "light" as const },
  { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const },
];

let harness: WebHarness;
let alice: Page;
let bob: Page;

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open" });
  await signUp(harness, "alice");
  await signUp(harness, "bob");
  alice = await harness.newPage(SIZES[0]);
  bob = await harness.newPage(SIZES[1]);
  const csrf = await signIn(alice, "alice");
  await signIn(bob, "bob");
  await createRepo(alice, csrf, "alice", "liked-model");
  const lines = [
    { key: "header", value: { summary: "Add config.json" } },
    {
      key: "file",
      value: {
        path: "config.json",
        content: Buffer.from('{"model_type": "gpt2"}').toString("base64"),
        encoding: "base64",
      },
    },
  ];
  const commit = await alice.request.post(`/api/models/${MODEL}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(commit.status()).toBe(200);
});
afterAll(async () => {
  await harness?.close();
});

describe("likes and this hub's own counters (issue 38, item 1)", () => {
  it("lets a signed-in user like a repository from its page, and counts a download of the owner's model", async () => {
    const problems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto(`/${MODEL}`);
    const like = bob.getByTestId("like-button");
    // The first page of a fresh hub on a loaded machine: its chunks may take a while.
    await like.waitFor({ timeout: 40_000 });
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("false");
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    expect(await bob.getByTestId("likes").textContent()).toBe("1");
    await bob.reload();
    await expect.poll(() => bob.getByTestId("like-button").getAttribute("aria-pressed")).toBe("true");
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);

    // A download as the public hub counts it (config.json of a model without another rule), batched.
    expect((await alice.request.get(`/${MODEL}/resolve/main/config.json`)).status()).toBe(200);
    await expect
      .poll(
        async () => {
          await alice.goto(`/${MODEL}`);
          return alice.getByTestId("downloads").textContent();
        },
        { timeout: 20_000 },
      )
      .toBe("1");
  }, 90_000);

  it("does not show huggingface.co's figures as this hub's on a demo copy", async () => {
    await alice.goto(`/${CHAT_MODEL}`);
    await alice.getByTestId("like-button").waitFor();
    expect(await alice.getByTestId("downloads").textContent()).toBe("0");
    expect(await alice.getByTestId("likes").textContent()).toBe("0");
  }, 60_000);
});

describe("the landing page (issue 38, item 7)", () => {
  it.each(SIZES)(
    "says what the hub is, with trending and recent repositories ($colorScheme)",
    async (size) => {
      const page = await harness.newPage(size);
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto("/");
      expect(new URL(page.url()).pathname).toBe("/");
      await page.getByRole("heading", { level: 1, name: "Modelhub" }).waitFor();
      await page.getByTestId("trending").getByRole("link", { name: MODEL }).waitFor({ timeout: 40_000 });
      await page.getByTestId("recent-models").getByRole("link", { name: MODEL }).waitFor();
      expect(await page.title()).toBe("Modelhub: a self-hosted model hub");
      expect(await severeAxeFindings(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
