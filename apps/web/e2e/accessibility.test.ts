import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { CHAT_MODEL, GGUF_MODEL, PAGE_READY } from "./pages.js";

/** Every page of the app, each waited for by something only its loaded state shows. */
const PAGES: Array<{ name: string; path: string; ready: (page: Page) => Promise<unknown> }> = [
  { name: "models", path: "/models", ready: PAGE_READY.models },
  {
    name: "model card",
    path: `/${CHAT_MODEL}`,
    ready: PAGE_READY.modelCard,
  },
  {
    name: "library",
    path: `/${CHAT_MODEL}/libraries/transformers`,
    ready: PAGE_READY.library,
  },
  {
    name: "local apps",
    path: `/${GGUF_MODEL}/local-apps`,
    ready: PAGE_READY.localApps,
  },
  {
    name: "inference",
    path: `/${CHAT_MODEL}/inference?provider=together&streaming=true&temperature=0.5`,
    ready: PAGE_READY.inference,
  },
  {
    name: "playground",
    path: `/${CHAT_MODEL}/playground`,
    ready: PAGE_READY.playground,
  },
  {
    name: "chat template",
    path: `/${CHAT_MODEL}/chat-template`,
    ready: PAGE_READY.chatTemplate,
  },
  {
    name: "widget builder",
    path: "/widget-builder",
    ready: PAGE_READY.widgetBuilder,
  },
  {
    name: "not found",
    path: "/this/model/does-not-exist/at-all",
    ready: PAGE_READY.notFound,
  },
];

let harness: WebHarness;
beforeAll(async () => {
  harness = await startWebHarness();
});
afterAll(() => harness?.close());

describe.each<ColorScheme>(["light", "dark"])("accessibility in the %s theme", (colorScheme) => {
  it.each(PAGES)("$name has no serious or critical axe violation", async ({ path, ready }) => {
    const page = await harness.newPage({ colorScheme });
    await page.goto(path);
    await ready(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(
      colorScheme === "dark",
    );
    // The two themes share one DOM and differ only in colours: the light run checks every rule, the dark
    // run the colour-dependent ones (axe takes seconds per page on a loaded machine).
    const builder = new AxeBuilder({ page });
    const results = await (colorScheme === "light"
      ? builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
      : builder.withRules(["color-contrast", "link-in-text-block"])
    ).analyze();
    const severe = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
      );
    expect(severe).toEqual([]);
    await page.context().close();
  });
});
