import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_DIST } from "./build-web.js";
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

const PROVIDER_KEY = "sim-together-key-first-hour";
/** A chat model of the catalogue that is not gated, served by "together" (provider-sim here). */
const CHAT_MODEL = "Qwen/Qwen2.5-7B-Instruct";

let harness: WebHarness;
let sim: ProviderSim;
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
  sim = await startProviderSim({ providerKeys: { together: [PROVIDER_KEY] } });
  harness = await startWebHarness({
    signupPolicy: "open",
    providerKeys: { together: PROVIDER_KEY },
    providerBaseUrls: { together: sim.providerUrl("together") },
  });
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
afterAll(async () => {
  await harness?.close();
  await sim?.close();
});

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
    // The first press shows the diff (nothing replaced unseen), the second commits.
    await alice.getByRole("button", { name: "Commit changes" }).click();
    await alice.getByRole("region", { name: "Diff of README.md" }).getByText("+# Gated").waitFor();
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

describe("a new model without metadata", () => {
  it("says what its card does not name instead of showing an empty box", async () => {
    await createRepo(alice, aliceCsrf, "alice", "plain");
    await commitFile(alice, aliceCsrf, "alice/plain", "README.md", "# Plain\n\nNo metadata here.\n");
    await alice.goto("/alice/plain");
    const about = alice.getByRole("complementary", { name: "About this model" });
    await about.getByText("names no license, base model, datasets or languages").waitFor();
    expect(await about.locator("dl").count()).toBe(0);

    await commitFile(alice, aliceCsrf, "alice/plain", "README.md", "---\nlicense: mit\n---\n# Plain\n");
    await alice.goto("/alice/plain");
    await about.getByTestId("license").waitFor();
    expect(await about.getByText("names no license").count()).toBe(0);

    // The owner's page dates it as the models list does: the models API gives no `lastModified`.
    await alice.goto("/alice");
    const row = alice.getByTestId("owner-models").getByRole("link", { name: /alice\/plain/ });
    await row.getByText(/^Created /).waitFor();
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

/** The app's scripts and styles a page load fetched, with what the hub sent for each. */
async function assetsOf(page: Page, path: string) {
  const seen: Promise<{ path: string; encoding?: string; vary?: string; cache?: string; bytes: number }>[] =
    [];
  const listener = (response: import("playwright-core").Response) => {
    const url = new URL(response.url());
    if (!/^\/assets\/.+\.(?:js|css)$/.test(url.pathname)) return;
    seen.push(
      response
        .request()
        .sizes()
        .then((sizes) => ({
          path: url.pathname,
          encoding: response.headers()["content-encoding"],
          vary: response.headers().vary,
          cache: response.headers()["cache-control"],
          bytes: sizes.responseBodySize,
        })),
    );
  };
  page.on("response", listener);
  await page.goto(path, { waitUntil: "networkidle" });
  page.off("response", listener);
  return Promise.all(seen);
}

describe("delivery (issue 38, item 8)", () => {
  it("sends a model page's scripts and styles brotli-compressed, cached for good, under 150 KB of script", async () => {
    for (const page of [alice, bob]) {
      // A fresh context each: nothing in the memory cache, every asset comes from the hub.
      const cold = await harness.newPage({
        viewport: page.viewportSize() ?? undefined,
        colorScheme: page === bob ? "dark" : "light",
      });
      const problems = watchPage(cold, { expectedStatus: 200 });
      const assets = await assetsOf(cold, "/deepseek-ai/DeepSeek-R1");
      await cold
        .getByRole("heading", { name: /DeepSeek-R1/ })
        .first()
        .waitFor();
      expect(assets.length).toBeGreaterThan(2);
      for (const asset of assets) {
        expect(asset, asset.path).toMatchObject({
          vary: "Accept-Encoding",
          cache: "public, max-age=31536000, immutable",
        });
        // Files under 1 kB are sent as they are (apps/web/build/precompress.ts).
        expect(asset.encoding === "br" || asset.bytes < 1024, asset.path).toBe(true);
      }
      expect(assets.filter((asset) => asset.encoding === "br").length).toBeGreaterThan(2);
      const script = assets.filter((asset) => asset.path.endsWith(".js"));
      expect(script.reduce((sum, asset) => sum + asset.bytes, 0)).toBeLessThanOrEqual(150 * 1024);
      expect(await horizontalOverflow(cold)).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
      await cold.context().close();
    }
  });

  it("publishes nothing but the app: no test sources, no TypeScript", () => {
    const files = readdirSync(join(WEB_DIST, "assets"));
    expect(files.filter((name) => /\.(?:test|spec)[.-]|\.tsx?(?:\.(?:br|gz))?$/.test(name))).toEqual([]);
    expect(files.some((name) => name.endsWith(".js.br"))).toBe(true);
  });
});

describe("the playground with the session (issue 38, item 5)", () => {
  it("chats for a signed-in user without a token, and counts the call as theirs", async () => {
    for (const page of [alice, bob]) {
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto(`/${CHAT_MODEL}/playground?provider=together`);
      await page.getByTestId("playground-session").getByText("your calls go with your session").waitFor();
      await page.getByRole("textbox", { name: "Your message" }).fill("What is the capital of France?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect
        .poll(async () => (await page.getByTestId("assistant-turn").last().textContent())?.length ?? 0)
        .toBeGreaterThan(5);
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await severeAxeFindings(page)).toEqual([]);
      expect(problems).toEqual([]);
    }
    const usage = async (page: Page) =>
      (
        (await (await page.request.get("/api/settings/usage")).json()) as { usage: { requests: number }[] }
      ).usage.reduce((sum, row) => sum + row.requests, 0);
    await expect.poll(() => usage(alice)).toBe(1);
    await expect.poll(() => usage(bob)).toBe(1);
  });

  it("makes a token for code once, expiring in 30 days, and offers it again rather than another", async () => {
    const problems = watchPage(bob, { expectedStatus: 200 });
    await bob.goto(`/${CHAT_MODEL}/inference?provider=together`);
    await bob.getByRole("button", { name: "Create a token for me" }).click();
    const made = bob.getByTestId("token-for-me");
    await made.getByText(/Made “snippet: .*it expires on/).waitFor();
    const in30Days = new Intl.DateTimeFormat("en", {
      year: "numeric",
      month: "short",
      day: "numeric",
    }).format(new Date(Date.now() + 30 * 86_400_000));
    expect(await made.textContent()).toContain(in30Days);

    // Reloaded: the page does not make another; it shows the one there is.
    await bob.reload();
    await made.getByText(/You already have “snippet: /).waitFor();
    expect(await made.textContent()).toContain(in30Days);
    const tokens = (await (await bob.request.get("/api/settings/tokens")).json()) as {
      name: string;
      revokedAt: string | null;
    }[];
    expect(tokens.filter((token) => token.name.startsWith("snippet:") && !token.revokedAt)).toHaveLength(1);
    expect(await horizontalOverflow(bob)).toBeLessThanOrEqual(0);
    expect(await severeAxeFindings(bob)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
