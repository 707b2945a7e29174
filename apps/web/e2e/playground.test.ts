import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const ADMIN_TOKEN = "e2e-admin-token-0123456789";
const PROVIDER_KEY = "e2e-together-key";

let sim: ProviderSim;
let harness: WebHarness;
let page: Page;
let hubToken: string;

beforeAll(async () => {
  // A long synthesized stream (many events) so that there is time to press Stop in the middle of it.
  sim = await startProviderSim({ streamChunks: 60_000, providerKeys: { together: [PROVIDER_KEY] } });
  harness = await startWebHarness({
    adminToken: ADMIN_TOKEN,
    providerKeys: { together: PROVIDER_KEY },
    providerBaseUrls: { together: sim.providerUrl("together") },
  });
  const created = await fetch(`${harness.hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "web-e2e" }),
  });
  expect(created.status).toBe(201);
  hubToken = ((await created.json()) as { token: string }).token;
  page = await harness.newPage();
});
afterAll(async () => {
  await harness?.close();
  await sim?.close();
});

const reply = () => page.getByTestId("assistant-turn").last().textContent();

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

  it("shows a text-to-image result as an image", async () => {
    await page.goto("/stabilityai/stable-diffusion-xl-base-1.0/playground");
    await page.getByLabel(/access token/i).fill(hubToken);
    await page.getByRole("button", { name: "Generate" }).click();
    const image = page.getByTestId("generated-image");
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  });
});
