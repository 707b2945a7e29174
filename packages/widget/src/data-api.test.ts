import { describe, expect, it } from "vitest";
import {
  buildTopProductsQuery,
  modelPageUrl,
  parseTopProductsQuery,
  selectProducts,
  type TopProduct,
  toWidgetProduct,
} from "./data-api.js";

const RANKED: TopProduct[] = [
  { id: "acme/one", downloads: 9 },
  { id: "other/two", downloads: 8 },
  { id: "acme/three", downloads: 7 },
  { id: "other/four", downloads: 6 },
];

const parse = (query: string) => parseTopProductsQuery(new URLSearchParams(query));

describe("the data query", () => {
  it("round-trips what the script sends", () => {
    const query = { limit: 3, owner: "acme", ids: ["acme/a", "acme/b"] };
    expect(parse(buildTopProductsQuery(query))).toEqual({ ok: true, query });
  });

  it("defaults limit to 6 and ignores unknown parameters", () => {
    expect(parse("v=1")).toEqual({ ok: true, query: { limit: 6 } });
  });

  it.each([
    ["limit=0", /limit/],
    ["limit=25", /limit/],
    ["limit=-1", /limit/],
    ["limit=abc", /limit/],
    ["owner=a%2Fb", /owner/],
    ["owner=%3Cscript%3E", /owner/],
    ["ids=a/b,../etc", /ids: "..\/etc"/],
    [`ids=${Array.from({ length: 25 }, (_, i) => `o/m${i}`).join(",")}`, /more than 24/],
  ])("rejects %s", (query, problem) => {
    const result = parse(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

describe("selectProducts", () => {
  it("keeps the ranking order and caps at limit", () => {
    expect(selectProducts(RANKED, { limit: 2 }).map((p) => p.id)).toEqual(["acme/one", "other/two"]);
  });

  it("keeps only the owner's models", () => {
    expect(selectProducts(RANKED, { limit: 6, owner: "acme" }).map((p) => p.id)).toEqual([
      "acme/one",
      "acme/three",
    ]);
  });

  it("keeps exactly the permanent ids, in their order, skipping unknown ones", () => {
    const ids = ["other/four", "nobody/else", "acme/one"];
    expect(selectProducts(RANKED, { limit: 6, ids }).map((p) => p.id)).toEqual(["other/four", "acme/one"]);
  });

  it("intersects ids with owner", () => {
    const ids = ["other/four", "acme/one"];
    expect(selectProducts(RANKED, { limit: 6, ids, owner: "acme" }).map((p) => p.id)).toEqual(["acme/one"]);
  });
});

describe("toWidgetProduct", () => {
  it("splits the id, links the model page and keeps only public fields", () => {
    const record = { id: "acme/m 1", pipeline_tag: "text-generation", downloads: 5, likes: 2, cardText: "x" };
    expect(toWidgetProduct(record, "https://hub.example/")).toEqual({
      id: "acme/m 1",
      owner: "acme",
      name: "m 1",
      url: "https://hub.example/acme/m%201",
      pipeline_tag: "text-generation",
      downloads: 5,
      likes: 2,
    });
  });

  it("percent-encodes markup in ids so it cannot break out of the URL path", () => {
    expect(modelPageUrl("http://h", 'evil/"><script>')).toBe("http://h/evil/%22%3E%3Cscript%3E");
  });
});
