import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantGatedModel, startWebHarness, type WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";

const ADMIN_TOKEN = "e2e-polled-admin-token-0123";

/**
 * Providers that answer with a job to poll (or a queue), each driven from the playground page through the
 * hub's router to the in-process provider-sim: the result must arrive as real, viewable media.
 */
const CASES: Array<{ model: string; provider: string; media: "image" | "video" }> = [
  { model: "black-forest-labs/FLUX.1-dev", provider: "black-forest-labs", media: "image" },
  { model: "black-forest-labs/FLUX.1-dev", provider: "wavespeed", media: "image" },
  { model: "ByteDance/SDXL-Lightning", provider: "replicate", media: "image" },
  { model: "Efficient-Large-Model/Sana_1600M_1024px", provider: "fal-ai", media: "image" },
  { model: "Lightricks/LTX-Video", provider: "fal-ai", media: "video" },
  { model: "Wan-AI/Wan2.1-T2V-14B", provider: "novita", media: "video" },
  { model: "Wan-AI/Wan2.1-T2V-14B", provider: "wavespeed", media: "video" },
  { model: "Lightricks/LTX-Video", provider: "replicate", media: "video" },
];

let harness: WebHarness;
let hubToken: string;
beforeAll(async () => {
  harness = await startWebHarness({ adminToken: ADMIN_TOKEN });
  const created = await fetch(`${harness.hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "polled-e2e" }),
  });
  hubToken = ((await created.json()) as { token: string }).token;
  // FLUX.1-dev is gated: the token's (machine) user runs it once granted.
  await grantGatedModel(harness.hub, "legacy-tokens", "black-forest-labs/FLUX.1-dev");
});
afterAll(() => harness?.close());

async function mediaSize(page: Page, media: "image" | "video") {
  const element = page.getByTestId(media === "image" ? "generated-image" : "generated-video");
  await element.waitFor({ timeout: 30_000 });
  return element.evaluate(
    (node) =>
      new Promise<number>((resolve) => {
        if (node instanceof HTMLImageElement) {
          if (node.complete) resolve(node.naturalWidth);
          else node.addEventListener("load", () => resolve(node.naturalWidth));
        } else {
          const video = node as HTMLVideoElement;
          if (video.readyState >= 1) resolve(video.videoWidth);
          else {
            video.addEventListener("loadedmetadata", () => resolve(video.videoWidth));
            // A video the browser cannot decode fails here instead of waiting for the test's timeout.
            video.addEventListener("error", () => resolve(-1));
          }
        }
      }),
  );
}

describe("polled providers from the playground", () => {
  it.each(CASES)("$provider $media for $model", async ({ model, provider, media }) => {
    const page = await harness.newPage();
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto(`/${model}/playground?provider=${provider}`);
    await page.getByLabel(/access token/i).fill(hubToken);
    await page.getByRole("button", { name: "Generate" }).click();
    expect(await mediaSize(page, media)).toBe(512);
    await expect.poll(() => page.getByTestId("simulator-badge").isVisible()).toBe(true);
    expect(await page.getByTestId("playground-error").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
