import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { createRepo, signIn, signUp } from "./repo-users.js";

// One hub and one browser: alice owns alice/shared; bob, another user, proposes a change to it.
let harness: WebHarness;
let alice: Page;
let bob: Page;

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open" });
  await signUp(harness, "alice");
  await signUp(harness, "bob");
  alice = await harness.newPage({ viewport: { width: 1366, height: 900 } });
  // Bob is on a phone in the dark theme.
  bob = await harness.newPage({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  const csrf = await signIn(alice, "alice");
  await signIn(bob, "bob");
  await createRepo(alice, csrf, "alice", "shared");
  // alice's first file, created from the page with the keyboard.
  await alice.goto("/alice/shared/new/main");
  await alice.getByLabel("File name").focus();
  await alice.keyboard.type("notes.md");
  await alice.keyboard.press("Tab");
  await alice.keyboard.type("first line\n");
  await alice.getByLabel("Commit title").focus();
  await alice.keyboard.type("Add notes");
  await alice.keyboard.press("Enter");
  await alice.waitForURL("**/alice/shared/blob/main/notes.md");
});
afterAll(() => harness?.close());

describe("pull requests and settings", () => {
  it("lets another user propose a change as a pull request, which the owner merges", async () => {
    const bobProblems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto("/alice/shared/blob/main/notes.md");
    await bob.getByRole("link", { name: "Propose a change" }).click();
    const content = bob.getByLabel("Content");
    await expect.poll(() => content.inputValue()).toBe("first line\n");
    await content.fill("first line\nsecond line from bob\n");
    await bob.getByLabel("Commit title").fill("Add a line");
    // Bob cannot write: the only choice is a pull request.
    await bob.getByText("your change opens a pull request").waitFor();
    // The first press shows the diff of the change, the second opens the pull request.
    await bob.getByRole("button", { name: "Open pull request" }).click();
    await bob.getByRole("region", { name: "Diff of notes.md" }).getByText("+second line from bob").waitFor();
    await bob.getByRole("button", { name: "Open pull request" }).click();
    await bob.waitForURL(/\/alice\/shared\/discussions\/\d+$/);
    await bob.getByRole("heading", { name: /Add a line/ }).waitFor();
    await bob.getByRole("region", { name: "Diff of notes.md" }).getByText("+second line from bob").waitFor();
    expect(await bob.getByRole("button", { name: "Merge pull request" }).count()).toBe(0);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(bobProblems).toEqual([]);

    const aliceProblems = watchPage(alice, { expectedStatus: 200 });
    await alice.goto("/alice/shared/discussions");
    await alice.getByTestId("discussion-list").getByRole("link", { name: "Add a line" }).click();
    await alice.getByRole("region", { name: "Diff of notes.md" }).waitFor();
    expect(await severeAxeFindings(alice)).toEqual([]);
    await alice.getByLabel("Comment").fill("Thanks, merging.");
    await alice.getByRole("button", { name: "Merge pull request" }).focus();
    await alice.keyboard.press("Enter");
    await alice.getByText("merged", { exact: true }).first().waitFor();
    await alice.getByText("Thanks, merging.").waitFor();

    await alice.goto("/alice/shared/blob/main/notes.md");
    await expect
      .poll(() => alice.getByTestId("file-content").textContent())
      .toContain("second line from bob");
    expect(aliceProblems).toEqual([]);
  });

  it("makes the repository private: it disappears for others", async () => {
    const response = await bob.goto("/alice/shared");
    expect(response?.status()).toBe(200);

    await alice.goto("/alice/shared/settings");
    await alice.getByTestId("visibility").getByText("public").waitFor();
    expect(await severeAxeFindings(alice)).toEqual([]);
    await alice.getByRole("button", { name: "Make private" }).click();
    await alice.getByRole("status").getByText("The repository is now private.").waitFor();
    await alice.getByTestId("visibility").getByText("private").waitFor();

    const hidden = await bob.goto("/alice/shared");
    expect(hidden?.status()).toBe(404);
    const list = await bob.request.get("/api/models?author=alice");
    expect(((await list.json()) as Array<{ id: string }>).map((model) => model.id)).not.toContain(
      "alice/shared",
    );
    // alice still sees it.
    expect((await alice.goto("/alice/shared"))?.status()).toBe(200);
  });

  it("deletes the repository only after its id is typed", async () => {
    await alice.goto("/alice/shared/settings");
    const button = alice.getByRole("button", { name: "Delete alice/shared" });
    expect(await button.isDisabled()).toBe(true);
    await alice.getByLabel("Type alice/shared to confirm").fill("alice/shared");
    await button.click();
    await alice.waitForURL("**/models");
    expect((await alice.request.get("/api/models/alice/shared")).status()).toBe(404);
  });
});
