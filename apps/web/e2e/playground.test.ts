import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantGatedModel, startWebHarness, type WebHarness } from "./harness.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const ADMIN_TOKEN = "e2e-admin-token-0123456789";
const PROVIDER_KEY = "e2e-together-key";

let sim: ProviderSim;
/** A second simulator with short replies, behind fireworks-ai, for tests that chat many times. */
let quickSim: ProviderSim;
const QUICK_KEY = "e2e-fireworks-key";
let harness: WebHarness;
let page: Page;
let hubToken: string;

beforeAll(async () => {
  // A long synthesized stream (many events) so that there is time to press Stop in the middle of it.
  sim = await startProviderSim({ streamChunks: 60_000, providerKeys: { together: [PROVIDER_KEY] } });
  quickSim = await startProviderSim({ providerKeys: { "fireworks-ai": [QUICK_KEY] } });
  harness = await startWebHarness({
    adminToken: ADMIN_TOKEN,
    providerKeys: { together: PROVIDER_KEY, "fireworks-ai": QUICK_KEY },
    providerBaseUrls: {
      together: sim.providerUrl("together"),
      "fireworks-ai": quickSim.providerUrl("fireworks-ai"),
    },
  });
  const created = await fetch(`${harness.hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "web-e2e" }),
  });
  expect(created.status).toBe(201);
  hubToken = ((await created.json()) as { token: string }).token;
  // The token is the machine user's (no user named): it may run the gated chat model once granted.
  await grantGatedModel(harness.hub, "legacy-tokens", MODEL);
  page = await harness.newPage();
});
afterAll(async () => {
  await harness?.close();
  await sim?.close();
  await quickSim?.close();
});

const reply = () => page.getByTestId("assistant-turn").last().textContent();
/** The last reply's own text, without the screen-reader prefix and the buttons under it. */
const assistantText = () =>
  page.evaluate(() => {
    const turns = document.querySelectorAll('[data-testid="assistant-turn"]');
    const turn = turns[turns.length - 1]?.cloneNode(true) as HTMLElement | undefined;
    for (const extra of turn?.querySelectorAll(".sr-only, button") ?? []) extra.remove();
    return turn?.textContent?.trim() ?? "";
  });

/**
 * Sends a message and records, inside the page, the reply's length at every commit that made it grow,
 * until the stream ends (Send is back) or, with `stopAfter`, presses Stop after that many growths: from
 * an observer callback, so no timing between the test and the page can race the stream.
 */
async function ask(message: string, { stopAfter }: { stopAfter?: number } = {}): Promise<number[]> {
  await page.getByRole("textbox", { name: "Your message" }).fill(message);
  const watching = page.evaluate(
    (limit) =>
      new Promise<number[]>((resolve, reject) => {
        const lengths: number[] = [];
        const timer = setTimeout(
          () => reject(new Error(`no end of stream; grew ${lengths.length} times`)),
          30_000,
        );
        const buttons = () => [...document.querySelectorAll("button")];
        const finish = (observer: MutationObserver) => {
          observer.disconnect();
          clearTimeout(timer);
          resolve(lengths);
        };
        const observer = new MutationObserver(() => {
          const turns = document.querySelectorAll('[data-testid="assistant-turn"]');
          const text = turns[turns.length - 1]?.textContent?.replace("…", "") ?? "";
          if (text.length > (lengths.at(-1) ?? 0)) lengths.push(text.length);
          if (limit !== null && lengths.length >= limit) {
            buttons()
              .find((button) => button.textContent === "Stop")
              ?.click();
            finish(observer);
          } else if (lengths.length > 0 && buttons().some((button) => button.textContent === "Send")) {
            finish(observer);
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    stopAfter ?? null,
  );
  await page.getByRole("button", { name: "Send" }).click();
  return watching;
}

describe("playground", () => {
  it("shows the client's error message when the router refuses the call", async () => {
    await page.goto(`/${MODEL}/playground?provider=together`);
    await page.getByRole("textbox", { name: "Your message" }).fill("Hello?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByTestId("playground-error");
    await expect.poll(() => alert.textContent()).toMatch(/token/i);
  });

  it("streams a reply from provider-sim through the hub's router, and stops on demand", async () => {
    await page.goto(`/${MODEL}/playground?provider=together`);
    await page.getByLabel(/access token/i).fill(hubToken);

    // A whole reply: it grows commit by commit while the events arrive, until the stream ends.
    const whole = await ask("Tell me a long story.");
    expect(whole.length).toBeGreaterThanOrEqual(2);
    expect(sim.requests.at(-1)?.path).toContain("/chat/completions");
    expect(sim.requests.at(-1)?.json).toMatchObject({ stream: true });
    const full = whole.at(-1) ?? 0;

    // Stop at the first token: the reply ends there, far short of the whole stream.
    const stoppedAt = await ask("Tell it again.", { stopAfter: 1 });
    expect(stoppedAt).toHaveLength(1);
    await expect.poll(reply).toContain("(stopped)");
    const stopped = await reply();
    await page.waitForTimeout(400);
    expect(await reply()).toBe(stopped);
    expect((stopped ?? "").length).toBeLessThan(full);
    await expect.poll(() => page.getByRole("button", { name: "Send" }).isVisible()).toBe(true);
    // The hub cancelled its upstream request when the browser went away.
    await expect.poll(() => sim.activeStreams, { timeout: 10_000 }).toBe(0);
  });

  it("shows a simulated text-to-image result as a real picture, badged as the simulator's", async () => {
    await page.goto("/stabilityai/stable-diffusion-xl-base-1.0/playground?provider=hf-inference");
    await page.getByLabel(/access token/i).fill(hubToken);
    await page.getByRole("button", { name: "Generate" }).click();
    const image = page.getByTestId("generated-image");
    await image.waitFor();
    await expect.poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth)).toBe(512);
    await expect.poll(() => page.getByTestId("simulator-badge").textContent()).toContain("simulator");
  });

  it("marks a failed turn as failed with Retry, and never sends it (or an empty reply) as history", async () => {
    await page.goto(`/${MODEL}/playground?provider=fireworks-ai`);
    await page.getByLabel(/access token/i).fill("");
    await page.getByRole("textbox", { name: "Your message" }).fill("First, without a token");
    await page.getByRole("button", { name: "Send" }).click();
    const failed = page.locator('[data-testid="assistant-turn"][data-status="failed"]');
    await failed.waitFor();
    expect(await failed.getByTestId("playground-error").textContent()).toMatch(/token/i);
    await expect.poll(() => failed.getByRole("button", { name: "Retry" }).isVisible()).toBe(true);

    await page.getByLabel(/access token/i).fill(hubToken);
    const before = quickSim.requests.length;
    await ask("Second, with a token");
    const sent = quickSim.requests
      .slice(before)
      .find((request) => request.path.includes("/chat/completions"));
    const messages =
      (sent?.json as { messages: Array<{ role: string; content: string }> } | undefined)?.messages ?? [];
    expect(messages.filter((message) => message.role !== "system")).toEqual([
      { role: "user", content: "Second, with a token" },
    ]);

    // Retry resends the failed question, now with a token: the turn is answered in place.
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.locator('[data-status="failed"]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-status="done"]').count()).toBe(2);
  });

  it("sends the system prompt and the parameters, and copies a reply", async () => {
    await page.goto(`/${MODEL}/playground?provider=fireworks-ai`);
    await page.getByLabel(/access token/i).fill(hubToken);
    await page.getByText("Settings").click();
    await page.getByLabel("System prompt").fill("Answer in French.");
    await page.getByLabel("Temperature").fill("0.2");
    await page.getByLabel("Max tokens").fill("64");
    await page.getByLabel("Top-p").fill("0.5");
    const before = quickSim.requests.length;
    await ask("Hello");
    const sent = quickSim.requests
      .slice(before)
      .find((request) => request.path.includes("/chat/completions"));
    expect(sent?.json).toMatchObject({
      messages: [
        { role: "system", content: "Answer in French." },
        { role: "user", content: "Hello" },
      ],
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.5,
    });
    await page.getByRole("button", { name: "Copy reply" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await assistantText());
    await page.getByRole("button", { name: "Clear" }).click();
    expect(await page.getByTestId("assistant-turn").count()).toBe(0);
  });

  it("wraps a 3,000-character word and scrolls a long chat inside itself, the input in view", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`/${MODEL}/playground?provider=fireworks-ai`);
      await page.getByLabel(/access token/i).fill(hubToken);
      await ask("x".repeat(3000));
      for (let turn = 0; turn < 6; turn++) await ask(`Question ${turn}: ${"long text ".repeat(40)}`);
      const sizes = await page.evaluate(() => {
        const box = document.querySelector('[data-testid="conversation"]') as HTMLElement;
        return {
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          boxScrolls: box.scrollHeight > box.clientHeight,
          boxHeight: box.clientHeight,
        };
      });
      expect(await page.locator('[data-status="done"]').count()).toBe(7);
      expect(sizes.overflow).toBeLessThanOrEqual(0);
      expect(sizes.boxScrolls).toBe(true);
      expect(sizes.boxHeight).toBeLessThanOrEqual(844 * 0.6 + 1);
      await page.getByRole("textbox", { name: "Your message" }).scrollIntoViewIfNeeded();
      expect(await page.getByRole("textbox", { name: "Your message" }).isVisible()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("explains a token that is not a hub token instead of calling the provider with it", async () => {
    await page.goto(`/${MODEL}/playground?provider=cerebras`);
    await page.getByLabel(/access token/i).fill("csk-not-a-hub-token");
    await expect.poll(() => page.getByTestId("token-problem").textContent()).toMatch(/hf_/);
    await page.getByRole("textbox", { name: "Your message" }).fill("Hello?");
    await page.getByRole("button", { name: "Send" }).click();
    const error = page.getByTestId("playground-error").last();
    await expect.poll(() => error.textContent()).toMatch(/not a hub token/);
    expect(await error.textContent()).not.toMatch(/Failed to fetch/);
  });

  it("keeps the token across the model's tabs, and the chosen audio file across a provider change", async () => {
    await page.goto(`/${MODEL}/playground?provider=fireworks-ai`);
    await page.getByLabel(/access token/i).fill(hubToken);
    await page.getByRole("link", { name: "Model card" }).click();
    await page.getByRole("article", { name: "Model card" }).waitFor();
    await page.getByRole("link", { name: "Playground" }).click();
    await expect.poll(() => page.getByLabel(/access token/i).inputValue()).toBe(hubToken);

    await page.goto("/openai/whisper-large-v3/playground?provider=hf-inference");
    await page.locator('input[type="file"]').setInputFiles({
      name: "speech.wav",
      mimeType: "audio/wav",
      buffer: Buffer.from("RIFF....WAVEfmt "),
    });
    await page.getByTestId("playground-provider").click();
    await page.getByRole("option", { name: /^fal/ }).click();
    await expect.poll(() => page.url()).toContain("provider=fal-ai");
    expect(await page.getByText("Chosen: speech.wav").isVisible()).toBe(true);
    expect(
      await page.locator('input[type="file"]').evaluate((input) => (input as HTMLInputElement).files?.length),
    ).toBe(1);
    expect(
      await page.getByText(/fal-ai accepts audio\/mpeg, audio\/mp4, audio\/wav, audio\/x-wav/).count(),
    ).toBe(1);
  });
});
