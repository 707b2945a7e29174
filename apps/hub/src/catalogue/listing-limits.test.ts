import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";
import { MAX_DETAILED_PAGE_SIZE } from "./listing-query.js";

/**
 * The listing's bounds: a page asking for every field is at most MAX_DETAILED_PAGE_SIZE models, and the
 * `Link` header walks the rest in order. Many models, so that the bound is reached.
 */

const MODELS = 250;
let hub: SeededApp;
beforeAll(async () => {
  hub = await seededApp();
  await hub.store.transaction(async (tx) => {
    for (let i = 0; i < MODELS; i++) {
      await tx.models.upsert({
        id: `bulk/model-${String(i).padStart(3, "0")}`,
        tags: ["text-generation"],
        pipeline_tag: "text-generation",
        likes: i,
      });
    }
  });
});
afterAll(() => hub.cleanup());

async function walk(firstPath: string): Promise<{ pages: number[]; ids: string[] }> {
  const pages: number[] = [];
  const ids: string[] = [];
  let next: string | undefined = `http://hub.test${firstPath}`;
  while (next) {
    const response = await hub.app.request(next);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const page = (await response.json()) as { id: string }[];
    pages.push(page.length);
    ids.push(...page.map((model) => model.id));
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get("Link") ?? "")?.[1];
  }
  return { pages, ids };
}

describe("GET /api/models bounds", () => {
  it("serves full=true in pages of at most MAX_DETAILED_PAGE_SIZE, linked to the end", async () => {
    const total = await hub.store.models.count();
    const full = await walk("/api/models?limit=1000&full=true&sort=likes");
    expect(Math.max(...full.pages)).toBe(MAX_DETAILED_PAGE_SIZE);
    expect(full.ids).toHaveLength(total);
    expect(new Set(full.ids).size).toBe(total);
    // The plain listing takes the whole page at once, in the same order.
    const plain = await walk("/api/models?limit=1000&sort=likes");
    expect(plain.pages).toEqual([total]);
    expect(plain.ids).toEqual(full.ids);
  });

  it("bounds expand[] listings the same way, and streams an empty page as []", async () => {
    const expanded = await hub.app.request("http://hub.test/api/models?limit=500&expand[]=siblings");
    expect(((await expanded.json()) as unknown[]).length).toBe(MAX_DETAILED_PAGE_SIZE);
    const empty = await hub.app.request("http://hub.test/api/models?search=no-such-model-anywhere");
    expect(await empty.text()).toBe("[]");
  });
});
