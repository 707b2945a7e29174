import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { createRepo, signIn, signUp } from "./repo-users.js";

// Issue 38, a new user's first hour (items 1, 2 and 3). One hub: alice (desktop, light) owns alice/gated, a gated model whose
// README is front matter only, with the fields its gate asks for; bob (phone, dark) asks for access.
const GATED = "alice/gated";
const FRONT_MATTER = [
  "---",
  "license: apache-2.0",
  "extra_gated_prompt: Tell us who you are.",
  "extra_gated_fields:",
  "  Company: text",
  "  Affiliation:",
  "    type: select",
  "    options: [Student, Researcher]",
  "  I agree to the licence: checkbox",
  "---",
  "",
].join("\n");

let harness: WebHarness;
let alice: Page;
let bob: Page;
let aliceCsrf: string;

async function commitFile(page: Page, csrf: string, repoId: string, path: string, content: string) {
  const lines = [
    { key: "header", value: { summary: `Add ${path}` } },
    { key: "file", value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" } },
  ];
  const response = await page.request.post(`/api/models/${repoId}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!response.ok()) throw new Error(`commit ${path}: ${response.status()} ${await response.text()}`);
}

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open" });
  await signUp(harness, "alice");
  await signUp(harness, "bob");
  alice = await harness.newPage({ viewport: { width: 1366, height: 900 } });
  bob = await harness.newPage({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  aliceCsrf = await signIn(alice, "alice");
  await signIn(bob, "bob");
  await createRepo(alice, aliceCsrf, "alice", "gated");
  await commitFile(alice, aliceCsrf, GATED, "README.md", FRONT_MATTER);
  const gate = await alice.request.put(`/api/models/${GATED}/settings`, {
    headers: { "X-CSRF-Token": aliceCsrf },
    data: { gated: "manual" },
  });
  expect(gate.status()).toBe(200);
});
afterAll(() => harness?.close());

describe("gated access (issue 38, item 2)", () => {
  it("lets a user ask with the card's fields, and shows the request's state until the owner accepts", async () => {
    const problems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto(`/${GATED}`);
    const form = bob.getByRole("form", { name: "Ask for access" });
    await bob.getByText("Tell us who you are.").waitFor();
    await form.getByLabel("Company").fill("Acme");
    await form.getByLabel("Affiliation").selectOption("Researcher");
    await form.getByLabel("I agree to the licence").check();
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    await form.getByRole("button", { name: "Ask for access" }).click();
    await bob
      .getByRole("status")
      .getByText(/awaiting review by its owners/)
      .waitFor();
    expect(problems).toEqual([]);

    // The owner's queue shows who asked and their answers; the owner accepts.
    await alice.goto(`/${GATED}/settings`);
    const queue = alice.getByRole("region", { name: "Pending access requests" });
    await queue.getByText("Acme").waitFor();
    await queue.getByText("Researcher").waitFor();
    expect(await severeAxeFindings(alice)).toEqual([]);
    await queue.getByRole("button", { name: "Accept bob" }).click();
    await queue.getByText("No one is waiting.").waitFor();

    await bob.reload();
    await bob
      .getByRole("status")
      .getByText(/You have been granted access/)
      .waitFor();
    expect(await bob.getByRole("form", { name: "Ask for access" }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe("writing a card over front matter (issue 38, item 3)", () => {
  it("opens the existing README, front matter and all, and never replaces it unseen", async () => {
    const problems = watchPage(alice, { expectedStatus: 200 });
    await alice.goto(`/${GATED}/new/main?filename=README.md`);
    await alice.getByLabel("Content").fill("# Replaced\n");
    await alice.getByRole("button", { name: "Commit changes" }).click();
    const clash = alice.getByRole("alert").filter({ hasText: "already exists" });
    await clash.waitFor();
    expect(await severeAxeFindings(alice)).toEqual([]);
    const readme = async () => (await alice.request.get(`/${GATED}/resolve/main/README.md`)).text();
    expect(await readme()).toBe(FRONT_MATTER);

    await alice.goto(`/${GATED}`);
    await alice.getByText("metadata but no text yet").waitFor();
    await alice.getByRole("link", { name: "Write the card" }).click();
    const content = alice.getByLabel("Content");
    await expect.poll(() => content.inputValue()).toBe(FRONT_MATTER);
    await content.fill(`${FRONT_MATTER}# Gated\n\nA model behind a gate.\n`);
    await alice.getByRole("button", { name: "Commit changes" }).click();
    await alice.waitForURL(`**/${GATED}/blob/main/README.md`);
    expect(await readme()).toBe(`${FRONT_MATTER}# Gated\n\nA model behind a gate.\n`);
    expect(problems).toEqual([]);
  });

  it("shows the phone reader in the dark the same offer, not 'Create one'", async () => {
    // bob was granted access above; the card now has text, so a fresh repository shows the offer.
    await createRepo(alice, aliceCsrf, "alice", "metadata-only");
    await commitFile(alice, aliceCsrf, "alice/metadata-only", "README.md", "---\nlicense: mit\n---\n");
    const problems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto("/alice/metadata-only");
    await bob.getByRole("link", { name: "Write the card" }).waitFor();
    expect(await bob.getByRole("link", { name: "Create one" }).count()).toBe(0);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe("an honest demo catalogue (issue 38, item 1)", () => {
  it("says a demo copy's GGUF files hold no weights beside their size", async () => {
    const problems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto("/bartowski/Llama-3.2-3B-Instruct-GGUF");
    const files = bob.getByTestId("gguf-files");
    await expect.poll(() => files.textContent()).toMatch(/Q4_K_M[\d.]+ kB, no weights/);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
