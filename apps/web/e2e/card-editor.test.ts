import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { createRepo, hubWithOwner, signIn } from "./repo-users.js";

// Issue 38, item 3: a README with front matter but no text opened an empty editor, and committing replaced the
// file and its metadata without a warning. Card editing now opens the file, shows its common fields as a form
// (the rest of the front matter kept), and commits only after showing the diff, against the commit it was
// loaded from. At 1366 and 390 px, light and dark: one repository each.
const OWNER = "ada";
const SIZES = [
  { viewport: { width: 1366, height: 900 }, colorScheme: "light" as const },
  { viewport: { width: 1366, height: 900 }, colorScheme: "dark" as const },
  { viewport: { width: 390, height: 844 }, colorScheme: "light" as const },
  { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const },
];
const METADATA_ONLY = `---
# chosen with the legal team
license: mit
tags:
  - weather
model-index:
  - name: forecaster
    results: []
---
`;

let harness: WebHarness;
let owner: Page;
let csrf: string;

async function commitReadme(repo: string, text: string, title = "Add the card") {
  const lines = [
    { key: "header", value: { summary: title } },
    {
      key: "file",
      value: { path: "README.md", content: Buffer.from(text).toString("base64"), encoding: "base64" },
    },
  ];
  const response = await owner.request.post(`/api/models/${repo}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(response.status()).toBe(200);
}

async function readme(repo: string): Promise<string> {
  const response = await fetch(`${harness.hub.url}/${repo}/resolve/main/README.md`, {
    headers: { "cache-control": "no-cache" },
  });
  return response.text();
}

beforeAll(async () => {
  ({ harness, page: owner, csrf } = await hubWithOwner(OWNER, []));
  for (const index of SIZES.keys()) {
    await createRepo(owner, csrf, OWNER, `card-${index}`);
    await commitReadme(`${OWNER}/card-${index}`, METADATA_ONLY);
  }
  await createRepo(owner, csrf, OWNER, "card-stale");
  await commitReadme(`${OWNER}/card-stale`, METADATA_ONLY);
});
afterAll(async () => {
  await harness?.close();
});

describe("card editing (issue 38, item 3)", () => {
  it.each(SIZES.map((size, index) => ({ ...size, index })))(
    "opens the README's front matter as a form, keeps the rest, and commits after a diff ($viewport.width px, $colorScheme)",
    async ({ index, ...size }) => {
      const repo = `${OWNER}/card-${index}`;
      const page = await harness.newPage(size);
      await signIn(page, OWNER);
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto(`/${repo}`);
      await page.getByText("has metadata but no text yet").waitFor({ timeout: 40_000 });
      await page.getByRole("link", { name: "Write the card" }).click();
      await page.waitForURL(`**/${repo}/edit/main/README.md`);

      const form = page.getByRole("group", { name: "Card metadata" });
      await form.waitFor();
      expect(await form.getByLabel("Licence").inputValue()).toBe("mit");
      expect(await form.getByLabel("Tags").inputValue()).toBe("weather");
      expect(await page.getByTestId("kept-keys").textContent()).toBe("model-index");
      await form.getByLabel("Licence").fill("apache-2.0");
      await form.getByLabel("Languages").fill("en, fr");
      await form.getByLabel("Pipeline").selectOption("text-generation");
      const content = page.getByLabel("Content");
      await expect.poll(() => content.inputValue()).toContain("license: apache-2.0");
      await content.fill(`${await content.inputValue()}\n# Forecaster ${index}\n\nWritten in the browser.\n`);

      // The first press shows what the commit changes, and commits nothing.
      await page.getByRole("button", { name: "Commit changes" }).click();
      const diff = page.getByRole("region", { name: "Diff of README.md" });
      await diff.waitFor();
      const shown = await diff.textContent();
      expect(shown).toContain("-license: mit");
      expect(shown).toContain("+license: apache-2.0");
      expect(shown).toContain(`+# Forecaster ${index}`);
      expect(await severeAxeFindings(page, size.colorScheme)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await readme(repo)).toBe(METADATA_ONLY);

      await page.getByRole("button", { name: "Commit changes" }).click();
      await page.waitForURL(`**/${repo}/blob/main/README.md`);
      const saved = await readme(repo);
      expect(saved).toContain("# chosen with the legal team");
      expect(saved).toContain("model-index:\n  - name: forecaster\n    results: []");
      expect(saved).toContain("license: apache-2.0");
      expect(saved).toContain("language:\n  - en\n  - fr");
      expect(saved).toContain("pipeline_tag: text-generation");
      expect(saved).toContain("tags:\n  - weather");
      expect(saved).toContain(`# Forecaster ${index}\n\nWritten in the browser.`);

      // The card page now shows the text, and offers to edit it.
      await page.goto(`/${repo}`);
      await page.getByRole("article", { name: "Model card" }).getByText("Written in the browser.").waitFor();
      await page.getByRole("link", { name: "Edit model card" }).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it("refuses to replace a README that changed since the editor opened it", async () => {
    const repo = `${OWNER}/card-stale`;
    const page = await harness.newPage(SIZES[0]);
    await signIn(page, OWNER);
    await page.goto(`/${repo}/edit/main/README.md`);
    const form = page.getByRole("group", { name: "Card metadata" });
    await form.waitFor({ timeout: 40_000 });
    // Someone else commits meanwhile.
    const theirs = `${METADATA_ONLY}\n# Their text\n`;
    await commitReadme(repo, theirs, "Their change");
    await form.getByLabel("Licence").fill("cc-by-4.0");
    await page.getByRole("button", { name: "Commit changes" }).click();
    await page.getByRole("region", { name: "Diff of README.md" }).waitFor();
    await page.getByRole("button", { name: "Commit changes" }).click();
    await page.getByRole("alert").filter({ hasText: /./ }).first().waitFor();
    expect(await readme(repo)).toBe(theirs);
    await page.close();
  }, 60_000);
});
