import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { SEED_ADMIN_TOKEN } from "./repo-seed.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

let harness: WebHarness;
let page: Page;

beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN });
  page = await harness.newPage();
});
afterAll(() => harness?.close());

const search = () => new URL(page.url()).searchParams;

describe("models list", () => {
  it("searches, filters and sorts through the URL, and pages with cursors", async () => {
    await page.goto("/models");
    await page.getByRole("searchbox", { name: "Search models" }).fill("llama");
    await page.waitForURL((url) => url.searchParams.get("search") === "llama");
    const ids = () => page.locator("main ul a span.truncate").allTextContents();
    // What the hub's search finds: every id containing the text, and models whose card the search index
    // matched (search/search.e2e.test.ts in the hub).
    const found = await fetch(`${harness.hub.url}/api/models?search=llama&limit=1000`);
    const matches = new Set(((await found.json()) as Array<{ id: string }>).map((model) => model.id));
    await expect
      .poll(async () => {
        const shown = await ids();
        return shown.some((id) => id.toLowerCase().includes("llama")) && shown.every((id) => matches.has(id));
      })
      .toBe(true);

    await page.getByRole("combobox", { name: "Task" }).click();
    await page.getByRole("option", { name: "Text Generation", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("task") === "text-generation");

    await page.getByRole("combobox", { name: "Sort" }).click();
    await page.getByRole("option", { name: "Most likes" }).click();
    await page.waitForURL((url) => url.searchParams.get("sort") === "likes");

    // The list shows what the API returns for the same query, in the same order.
    const api = await fetch(
      `${harness.hub.url}/api/models?search=llama&pipeline_tag=text-generation&sort=likes&direction=-1&limit=30`,
    );
    const expected = ((await api.json()) as Array<{ id: string }>).map((model) => model.id);
    await expect.poll(() => page.locator("main ul a span.truncate").allTextContents()).toEqual(expected);

    // Reload keeps every choice.
    await page.reload();
    await expect.poll(() => page.locator("main ul a span.truncate").allTextContents()).toEqual(expected);
    expect(search().get("search")).toBe("llama");
    await expect
      .poll(() => page.getByRole("combobox", { name: "Task" }).textContent())
      .toContain("Text Generation");
  });

  it("pages through the whole catalogue with the next-page cursor", async () => {
    await page.goto("/models");
    const first = await page.locator("main ul a span.truncate").first().textContent();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.waitForURL((url) => url.searchParams.has("cursor"));
    await expect.poll(() => page.locator("main ul a span.truncate").first().textContent()).not.toBe(first);
    await page.goBack();
    await expect.poll(() => page.locator("main ul a span.truncate").first().textContent()).toBe(first);
  });
});

describe("from search to a library snippet", () => {
  it("opens the model page and copies the loading code the API gives", async () => {
    await page.goto("/models");
    await page.getByRole("searchbox", { name: "Search models" }).fill("Llama-3.1-8B-Instruct");
    await page.waitForURL((url) => url.searchParams.get("search") === "Llama-3.1-8B-Instruct");
    await page
      .getByRole("link", { name: new RegExp(MODEL) })
      .first()
      .click();
    await page.waitForURL(`**/${MODEL}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(MODEL);
    await expect.poll(() => page.getByTestId("downloads").textContent()).toMatch(/\d/);

    await page.locator("summary", { hasText: "Use this model" }).click();
    await page
      .getByRole("navigation", { name: "Ways to use this model" })
      .getByRole("link", { name: "transformers" })
      .click();
    await page.waitForURL(`**/${MODEL}/libraries/transformers`);
    // A demo copy holds no weights: its Library tab says so instead of offering from_pretrained (issue 38).
    await page.getByTestId("missing-weights").waitFor();
    expect(await page.getByTestId("missing-weights").textContent()).toContain("holds no weight files");
    expect(await page.getByTestId("library-snippet").count()).toBe(0);
  });

  it("copies the loading code the API gives for a model that holds weights", async () => {
    const model = await seedModelWithWeights();
    await page.goto(`/${model}/libraries/transformers`);
    const response = await fetch(`${harness.hub.url}/api/models/${model}/library-snippets`);
    expect(response.ok).toBe(true);
    const body = (await response.json()) as unknown;
    const snippets = (Array.isArray(body) ? body : (body as { snippets: unknown[] }).snippets) as Array<{
      content: string;
    }>;
    expect(snippets.length).toBeGreaterThan(0);

    const blocks = page.getByTestId("library-snippet");
    await expect.poll(() => blocks.count()).toBe(snippets.length);
    await page
      .getByRole("button", { name: /^Copy transformers/i })
      .first()
      .click();
    await expect
      .poll(() =>
        page
          .getByRole("button", { name: /^Copy transformers/i })
          .first()
          .textContent(),
      )
      .toBe("Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(snippets[0]?.content);
  });
});

/** A user's transformers model with a (tiny) safetensors file, through the admin and commit APIs. */
async function seedModelWithWeights(): Promise<string> {
  const call = async (token: string, method: string, path: string, body: unknown, ndjson = false) => {
    const response = await fetch(`${harness.hub.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": ndjson ? "application/x-ndjson" : "application/json",
      },
      body: ndjson
        ? (body as unknown[]).map((line) => JSON.stringify(line)).join("\n")
        : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  await call(SEED_ADMIN_TOKEN, "POST", "/api/admin/users", {
    name: "grace",
    password: "correct horse battery",
  });
  const { token } = (await call(SEED_ADMIN_TOKEN, "POST", "/api/admin/tokens", {
    user: "grace",
    name: "seed",
    role: "write",
  })) as { token: string };
  const id = "grace/tiny-gpt2";
  await call(token, "POST", "/api/repos/create", { type: "model", name: id });
  const file = (path: string, text: string) => ({
    key: "file",
    value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
  });
  await call(
    token,
    "POST",
    `/api/models/${id}/commit/main`,
    [
      { key: "header", value: { summary: "A tiny model" } },
      file("README.md", "---\nlibrary_name: transformers\npipeline_tag: text-generation\n---\n# Tiny\n"),
      file("config.json", '{"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"]}'),
      file("model.safetensors", "not really weights, but a weight file all the same"),
    ],
    true,
  );
  return id;
}
