import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { createRepo, signIn, signUp } from "./repo-users.js";

/**
 * The repository pages' main paths with the keyboard alone (Tab to reach a control, Enter or Space to use
 * it), at desktop width in the light theme and on a phone in the dark one, with axe on each page: upload a
 * folder with an LFS-sized file, find it in the tree, open a file, open a commit's diff, make the repository
 * private and see it gone for another user.
 */
let harness: WebHarness;
let scratch: string;
let folder: string;
const LARGE_BYTES = 11 * 1024 * 1024;

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open" });
  await signUp(harness, "kim");
  await signUp(harness, "lee");
  scratch = mkdtempSync(join(tmpdir(), "modelhub-keyboard-"));
  folder = join(scratch, "checkpoint");
  mkdirSync(folder);
  writeFileSync(join(folder, "weights.bin"), randomBytes(LARGE_BYTES));
  writeFileSync(join(folder, "train.py"), 'print("trained with the keyboard")\n');
});
afterAll(async () => {
  await harness?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Presses Tab until `target` has the focus (failing after `limit` presses): proof it is reachable. */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  const handle = await target.elementHandle();
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((element) => document.activeElement === element, handle)) return;
  }
  throw new Error(`${target} was not reached with ${limit} presses of Tab`);
}

/**
 * No sideways scroll and no serious or critical axe finding (every rule, in either theme). Only on the pages
 * every-page.test.ts does not open at both widths and in both themes (upload, commit, settings): axe is most
 * of these tests' time.
 */
async function checkPage(page: Page): Promise<void> {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await severeAxeFindings(page)).toEqual([]);
}

const RUNS: Array<{ name: string; width: number; height: number; colorScheme: ColorScheme }> = [
  { name: "desktop, light", width: 1366, height: 900, colorScheme: "light" },
  { name: "phone, dark", width: 390, height: 844, colorScheme: "dark" },
];

describe.each(RUNS)("keyboard only ($name)", ({ width, height, colorScheme }) => {
  const repo = `keys-${width}`;
  let page: Page;

  beforeAll(async () => {
    page = await harness.newPage({ viewport: { width, height }, colorScheme });
    const csrf = await signIn(page, "kim");
    await createRepo(page, csrf, "kim", repo);
  });

  it("uploads a folder from the page and finds it in the tree", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto(`/kim/${repo}/tree/main`);
    await page.getByTestId("file-tree").waitFor();
    await tabTo(page, page.locator("details[data-menu] > summary", { hasText: "Add file" }));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("link", { name: "Upload files" }));
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/kim/${repo}/upload/main`);
    await page.getByRole("heading", { level: 2 }).first().waitFor();
    await checkPage(page);

    // Listening before the Tab presses: Playwright turns file-chooser interception on lazily when the first
    // listener is added, and a key pressed before it is on opened no chooser on a loaded machine.
    const chooser = page.waitForEvent("filechooser", { timeout: 60_000 });
    await tabTo(page, page.getByTestId("folder-input"));
    await page.keyboard.press("Space");
    await (await chooser).setFiles(folder);
    const list = page.getByRole("list", { name: "Files to upload" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(2);
    await tabTo(page, page.getByLabel("Commit title"));
    await page.keyboard.type("Checkpoint from the keyboard");
    await tabTo(page, page.getByRole("button", { name: "Commit changes" }));
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/kim/${repo}/tree/main`, { timeout: 60_000 });

    const tree = page.getByTestId("file-tree");
    await tabTo(page, tree.getByRole("link", { name: "checkpoint (folder)" }));
    await page.keyboard.press("Enter");
    const weights = tree.getByRole("row", { name: /weights\.bin/ });
    await expect.poll(() => weights.textContent()).toContain("LFS");
    expect(problems).toEqual([]);
  });

  it("opens a file, its history, and a commit's diff", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto(`/kim/${repo}/tree/main/checkpoint`);
    await tabTo(page, page.getByTestId("file-tree").getByRole("link", { name: "train.py" }));
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByTestId("file-content").textContent())
      .toContain("trained with the keyboard");

    await tabTo(page, page.getByRole("link", { name: "History" }));
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/kim/${repo}/commits/main/checkpoint/train.py`);
    const history = page.getByTestId("commit-list");
    await tabTo(page, history.getByRole("link", { name: "Checkpoint from the keyboard" }));
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/commit\/[0-9a-f]{40}$/);
    const diff = page.getByRole("region", { name: "Diff of checkpoint/train.py" });
    await diff.getByText('+print("trained with the keyboard")').waitFor();
    await checkPage(page);
    expect(problems).toEqual([]);
  });

  it("makes the repository private from settings: it disappears for another user", async () => {
    const other = await harness.newPage({ viewport: { width, height }, colorScheme });
    await signIn(other, "lee");
    expect((await other.goto(`/kim/${repo}`))?.status()).toBe(200);

    await page.goto(`/kim/${repo}/settings`);
    await page.getByTestId("visibility").getByText("public").waitFor();
    await checkPage(page);
    await tabTo(page, page.getByRole("button", { name: "Make private" }));
    await page.keyboard.press("Enter");
    await page.getByRole("status").getByText("The repository is now private.").waitFor();

    expect((await other.goto(`/kim/${repo}`))?.status()).toBe(404);
    await other.getByRole("heading", { level: 1 }).waitFor();
    const listed = await other.request.get("/api/models?author=kim");
    expect(((await listed.json()) as Array<{ id: string }>).map((model) => model.id)).not.toContain(
      `kim/${repo}`,
    );
    expect((await page.goto(`/kim/${repo}`))?.status()).toBe(200);
    await other.context().close();
  });
});
