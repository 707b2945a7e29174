import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { focusedOption } from "./page-checks.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

let harness: WebHarness;
let page: Page;
let mappings: Record<string, { status: string; providerId: string; task: string }>;

beforeAll(async () => {
  harness = await startWebHarness();
  page = await harness.newPage();
  const info = await fetch(`${harness.hub.url}/api/models/${MODEL}?expand[]=inferenceProviderMapping`);
  mappings = ((await info.json()) as { inferenceProviderMapping: typeof mappings }).inferenceProviderMapping;
});
afterAll(() => harness?.close());

const snippet = () => page.getByTestId("inference-snippet").textContent();
const params = () => new URL(page.url()).searchParams;

/** Resolves once the snippet differs from `before`, and returns it. */
async function changedFrom(before: string | null): Promise<string> {
  await expect.poll(snippet).not.toBe(before);
  return (await snippet()) ?? "";
}

describe("inference snippets panel", () => {
  it("changes the snippet and the URL with provider, language, client, streaming and sliders; reload restores it", async () => {
    expect(mappings.together?.providerId).toBeTruthy();
    await page.goto(`/${MODEL}/inference`);
    let text = (await changedFrom(null)) ?? "";

    // Provider
    await page.getByRole("combobox", { name: "Provider" }).click();
    await page.getByRole("option", { name: /^Together AI/ }).click();
    text = await changedFrom(text);
    expect(params().get("provider")).toBe("together");
    expect(text).toContain('provider="together"');

    // Language
    await page.getByRole("tab", { name: "JavaScript" }).click();
    text = await changedFrom(text);
    expect(params().get("language")).toBe("js");

    // Client
    await page.getByRole("combobox", { name: "Client" }).click();
    await page.getByRole("option", { name: "openai" }).click();
    text = await changedFrom(text);
    expect(params().get("client")).toBe("openai");
    expect(text).toContain('from "openai"');

    // Streaming
    expect(text).not.toMatch(/stream:\s*true/);
    await page.getByRole("checkbox", { name: "Stream the reply" }).check();
    text = await changedFrom(text);
    expect(params().get("streaming")).toBe("true");
    expect(text).toMatch(/stream:\s*true/);

    // A parameter is absent until set, then follows its slider.
    expect(text).not.toContain("temperature");
    await page.getByRole("checkbox", { name: "Set temperature" }).check();
    text = await changedFrom(text);
    expect(params().get("temperature")).toBe("0.7");
    expect(text).toMatch(/temperature:\s*0\.7\b/);
    await page.getByRole("slider", { name: "Temperature" }).focus();
    await page.keyboard.press("ArrowRight");
    text = await changedFrom(text);
    expect(params().get("temperature")).toBe("0.75");
    expect(text).toMatch(/temperature:\s*0\.75\b/);

    await page.getByRole("checkbox", { name: "Set max tokens" }).check();
    await page.getByRole("slider", { name: "Max tokens" }).focus();
    await page.keyboard.press("Home");
    text = await changedFrom(text);
    expect(params().get("max_tokens")).toBe("1");
    expect(text).toMatch(/max_tokens:\s*1\b/);

    // Reload: the same panel, from the URL alone.
    const url = page.url();
    await page.reload();
    await expect.poll(snippet).toBe(text);
    expect(page.url()).toBe(url);
    await expect
      .poll(() => page.getByRole("combobox", { name: "Provider" }).textContent())
      .toContain("Together AI");
    await expect
      .poll(() => page.getByRole("tab", { name: "JavaScript" }).getAttribute("aria-selected"))
      .toBe("true");
    expect(await page.getByRole("checkbox", { name: "Stream the reply" }).isChecked()).toBe(true);
  });

  it("reads the token from the environment unless the reader inlines theirs, which never reaches the URL", async () => {
    await page.goto(`/${MODEL}/inference?provider=together&language=python&client=huggingface_hub`);
    const fromEnv = await changedFrom(null);
    expect(fromEnv).toContain("HF_TOKEN");
    await page.getByRole("radio", { name: "Write my token into the code" }).check();
    await page.getByRole("textbox", { name: "Your access token" }).fill("hf_e2eSecretToken1234");
    const inlined = await changedFrom(fromEnv);
    expect(inlined).toContain("hf_e2eSecretToken1234");
    expect(page.url()).not.toContain("hf_e2e");
  });

  it("works with the keyboard alone: skip link, the Use this model menu, provider select, language tabs", async () => {
    await page.goto(`/${MODEL}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");

    // The hub's first view (header and card, no menu) shows until the card is ready, with the app's root
    // hidden: focusing the app's summary before then does nothing (focus() waits for no visibility).
    const useThisModel = page.locator("summary", { hasText: "Use this model" });
    await useThisModel.waitFor({ state: "visible" });
    await useThisModel.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("transformers");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/${MODEL}/libraries/transformers`);

    await page.goto(`/${MODEL}/inference?provider=together&language=python`);
    const before = await changedFrom(null);
    await page.getByRole("combobox", { name: "Provider" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("listbox").waitFor();
    await expect.poll(() => focusedOption(page)).not.toBeNull();
    // Type-ahead moves to the first provider whose name starts with the letters typed.
    await page.keyboard.type("Cer");
    await expect.poll(() => focusedOption(page)).toMatch(/^Cerebras/);
    await page.keyboard.press("Enter");
    await expect.poll(() => params().get("provider")).toBe("cerebras");
    const afterProvider = await changedFrom(before);

    await page.getByRole("tab", { name: "Python" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => params().get("language")).toBe("js");
    await changedFrom(afterProvider);
  });

  it("marks staging providers", async () => {
    const staged = Object.entries(await stagingMappings()).at(0);
    if (!staged) throw new Error("the catalogue has no staging mapping to show");
    const [modelId, provider] = staged;
    await page.goto(`/${modelId}/inference?provider=${provider}`);
    await expect.poll(() => page.getByRole("status").first().textContent()).toMatch(/staging/);
  });
});

/** Model id -> a provider that serves it in staging, from the hub's own data. */
async function stagingMappings(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const list = await fetch(
    `${harness.hub.url}/api/models?inference_provider=all&limit=200&expand[]=inferenceProviderMapping`,
  );
  for (const model of (await list.json()) as Array<{
    id: string;
    inferenceProviderMapping?: typeof mappings;
  }>) {
    for (const [provider, mapping] of Object.entries(model.inferenceProviderMapping ?? {})) {
      if (mapping.status === "staging") found[model.id] = provider;
    }
  }
  return found;
}
