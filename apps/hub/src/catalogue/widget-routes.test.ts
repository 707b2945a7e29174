import { gunzipSync } from "node:zlib";
import { getTopProductsScript } from "@modelhub/widget";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type TopProduct, type TopProductsQuery, widgetRoutes } from "./widget-routes.js";

const RANKING: TopProduct[] = [
  {
    id: "meta-llama/Llama-3.1-8B-Instruct",
    pipeline_tag: "text-generation",
    downloads: 5_000_000,
    likes: 4200,
  },
  { id: "openai/whisper-large-v3", pipeline_tag: "automatic-speech-recognition", downloads: 3_000_000 },
  { id: "meta-llama/Llama-3.2-1B", pipeline_tag: "text-generation", downloads: 2_000_000, likes: 900 },
  { id: "google/gemma-2-2b-it", pipeline_tag: "text-generation", downloads: 1_000_000, likes: 800 },
];

function makeApp(
  listTopModels: (opts: TopProductsQuery) => TopProduct[] | Promise<TopProduct[]>,
  hubUrl?: string,
) {
  const app = new Hono();
  app.route("/", widgetRoutes({ listTopModels, ...(hubUrl ? { hubUrl } : {}) }));
  return app;
}

const ranked = (opts: TopProductsQuery) =>
  RANKING.filter((model) => !opts.owner || model.id.startsWith(`${opts.owner}/`)).slice(0, opts.limit);

describe("GET /widget/top-products.js", () => {
  it("serves the bundled script with validators, caching and cross-origin headers", async () => {
    const script = await getTopProductsScript();
    const response = await makeApp(ranked).request("/widget/top-products.js?theme=dark");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("etag")).toBe(script.etag);
    expect(response.headers.get("last-modified")).toBe(script.lastModified.toUTCString());
    expect(response.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(await response.text()).toBe(script.code);
  });

  it("answers 304 without a body when If-None-Match matches", async () => {
    const app = makeApp(ranked);
    const etag = (await app.request("/widget/top-products.js")).headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`]) {
      const response = await app.request("/widget/top-products.js", {
        headers: { "If-None-Match": ifNoneMatch },
      });
      expect(response.status).toBe(304);
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("cache-control")).toContain("max-age=300");
      expect(await response.text()).toBe("");
    }
    const stale = await app.request("/widget/top-products.js", { headers: { "If-None-Match": '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it("answers 304 for If-Modified-Since at or after Last-Modified, 200 before", async () => {
    const app = makeApp(ranked);
    const lastModified = (await app.request("/widget/top-products.js")).headers.get("last-modified")!;
    const same = await app.request("/widget/top-products.js", {
      headers: { "If-Modified-Since": lastModified },
    });
    expect(same.status).toBe(304);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const older = await app.request("/widget/top-products.js", { headers: { "If-Modified-Since": before } });
    expect(older.status).toBe(200);
  });

  it("serves a pinned version with a longer cache, and 404 (still JavaScript) for an unknown one", async () => {
    const app = makeApp(ranked);
    const pinned = await app.request("/widget/top-products.js?version=1");
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=86400, stale-while-revalidate=604800");
    expect(await pinned.text()).toBe((await getTopProductsScript()).code);

    const unknown = await app.request("/widget/top-products.js?version=99");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await unknown.text()).toMatch(
      /^\/\* Modelhub widget: no script version "99"; versions: 1 \*\/\n$/,
    );
  });

  it("sends it gzipped, with its own validator, to clients that accept gzip", async () => {
    const script = await getTopProductsScript();
    const app = makeApp(ranked);
    const response = await app.request("/widget/top-products.js", {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const gzipEtag = `${script.etag.slice(0, -1)}-gz"`;
    expect(response.headers.get("etag")).toBe(gzipEtag);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(script.gzipBytes);
    expect(script.gzipBytes).toBeLessThanOrEqual(10 * 1024);
    expect(gunzipSync(body).toString("utf8")).toBe(script.code);

    const revalidated = await app.request("/widget/top-products.js", {
      headers: { "Accept-Encoding": "gzip", "If-None-Match": gzipEtag },
    });
    expect(revalidated.status).toBe(304);
    const refused = await app.request("/widget/top-products.js", {
      headers: { "Accept-Encoding": "gzip;q=0" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect(await refused.text()).toBe(script.code);
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await makeApp(ranked).request("/widget/top-products.js", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toMatch(/^"tp1-/);
    expect(await response.text()).toBe("");
  });
});

describe("GET /api/widget/top-products", () => {
  it("returns the ranking as widget products, with CORS and a short cache", async () => {
    const asked: TopProductsQuery[] = [];
    const app = makeApp((opts) => {
      asked.push(opts);
      return ranked(opts);
    }, "https://hub.example.org/");
    const response = await app.request("/api/widget/top-products?limit=2&v=1", {
      headers: { Origin: "https://some-blog.example" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(asked).toEqual([{ limit: 2 }]);
    expect(await response.json()).toEqual({
      version: 1,
      hubUrl: "https://hub.example.org",
      products: [
        {
          id: "meta-llama/Llama-3.1-8B-Instruct",
          owner: "meta-llama",
          name: "Llama-3.1-8B-Instruct",
          url: "https://hub.example.org/meta-llama/Llama-3.1-8B-Instruct",
          pipeline_tag: "text-generation",
          downloads: 5_000_000,
          likes: 4200,
        },
        {
          id: "openai/whisper-large-v3",
          owner: "openai",
          name: "whisper-large-v3",
          url: "https://hub.example.org/openai/whisper-large-v3",
          pipeline_tag: "automatic-speech-recognition",
          downloads: 3_000_000,
        },
      ],
    });
  });

  it("links to the request's origin when no hubUrl is configured", async () => {
    const response = await makeApp(ranked).request("http://127.0.0.1:8080/api/widget/top-products?limit=1");
    const body = (await response.json()) as { hubUrl: string; products: { url: string }[] };
    expect(body.hubUrl).toBe("http://127.0.0.1:8080");
    expect(body.products[0]?.url).toBe("http://127.0.0.1:8080/meta-llama/Llama-3.1-8B-Instruct");
  });

  it("passes owner and ids to the ranking and enforces them on its answer", async () => {
    const asked: TopProductsQuery[] = [];
    // A ranking that ignores the filters: the route must still answer with exactly what was asked.
    const app = makeApp((opts) => {
      asked.push(opts);
      return RANKING;
    });
    const owned = await app.request("/api/widget/top-products?limit=6&owner=meta-llama");
    expect(((await owned.json()) as { products: { id: string }[] }).products.map((p) => p.id)).toEqual([
      "meta-llama/Llama-3.1-8B-Instruct",
      "meta-llama/Llama-3.2-1B",
    ]);
    const ids = "google/gemma-2-2b-it,nobody/missing,openai/whisper-large-v3";
    const permanent = await app.request(`/api/widget/top-products?limit=3&ids=${ids}`);
    expect(((await permanent.json()) as { products: { id: string }[] }).products.map((p) => p.id)).toEqual([
      "google/gemma-2-2b-it",
      "openai/whisper-large-v3",
    ]);
    expect(asked).toEqual([
      { limit: 6, owner: "meta-llama" },
      { limit: 3, ids: ["google/gemma-2-2b-it", "nobody/missing", "openai/whisper-large-v3"] },
    ]);
  });

  it.each([
    "limit=0",
    "limit=100",
    "limit=1;DROP TABLE models",
    "owner=..%2F..",
    "ids=a/b,%3Cimg%3E",
    "ids=..%2Fsecret",
  ])("answers 400 JSON with CORS for %s, without asking the ranking", async (query) => {
    let calls = 0;
    const app = makeApp(() => {
      calls++;
      return RANKING;
    });
    const response = await app.request(`/api/widget/top-products?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toMatchObject({ code: "invalid_input", status: 400, title: "Bad Request" });
    expect(calls).toBe(0);
  });

  it("answers 503 JSON with CORS when the ranking fails, and reports the error", async () => {
    const reported: unknown[] = [];
    const app = new Hono();
    app.route(
      "/",
      widgetRoutes({
        listTopModels: async () => {
          throw new Error("database is locked");
        },
        onError: (error) => reported.push(error),
      }),
    );
    const response = await app.request("/api/widget/top-products");
    expect(response.status).toBe(503);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await response.json()) as { code: string; detail: string };
    expect(body.code).toBe("unavailable");
    expect(body.detail).not.toContain("database");
    expect(reported).toHaveLength(1);
  });

  it("answers the CORS preflight", async () => {
    const response = await makeApp(ranked).request("/api/widget/top-products", {
      method: "OPTIONS",
      headers: { Origin: "https://x.example", "Access-Control-Request-Method": "GET" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
  });
});
