import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { createWebHandler } from "./static-web.js";

// A built app as apps/web/build/precompress.ts leaves it: each text file with its .br and .gz copies.
const root = mkdtempSync(join(tmpdir(), "static-web-"));
const script = `console.log(${JSON.stringify("x".repeat(4000))});`;
mkdirSync(join(root, "assets"));
for (const [path, text] of [
  ["assets/index-abc123.js", script],
  ["index.html", `<!doctype html><title>hub</title>${"<p>app</p>".repeat(200)}`],
] as const) {
  writeFileSync(join(root, path), text);
  writeFileSync(join(root, `${path}.br`), brotliCompressSync(text));
  writeFileSync(join(root, `${path}.gz`), gzipSync(text));
}
writeFileSync(join(root, "assets", "logo-abc123.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
// What apps/web/build/page-preloads.ts writes; one entry that is not a script of the build.
writeFileSync(
  join(root, "page-preloads.json"),
  JSON.stringify({
    models: ["/assets/models-page-abc123.js", "/assets/filters-abc123.js", "https://elsewhere.example/x.js"],
    model: ["/assets/model-layout-abc123.js"],
  }),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = new Hono();
const web = createWebHandler(root, "default-src 'self'", (path) => path === "/models");
app.get("*", async (c) => (await web(c)) ?? c.text("not the app's", 404));

const get = (path: string, acceptEncoding?: string) =>
  app.request(path, { headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} });

describe("the web app's delivery", () => {
  it("serves the brotli copy of a hashed script to a browser, cached for good", async () => {
    const response = await get("/assets/index-abc123.js", "gzip, deflate, br, zstd");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Encoding")).toBe("br");
    expect(response.headers.get("Content-Type")).toMatch(/javascript/);
    expect(response.headers.get("Vary")).toBe("Accept-Encoding");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(script);
  });

  it("serves gzip to a client without brotli, and identity to one that accepts neither", async () => {
    const gzipped = await get("/assets/index-abc123.js", "gzip");
    expect(gzipped.headers.get("Content-Encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(script);

    const plain = await get("/assets/index-abc123.js");
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(plain.headers.get("Vary")).toBe("Accept-Encoding");
    expect(await plain.text()).toBe(script);
  });

  it("compresses the app's pages too, revalidated on each visit, a 404 page included", async () => {
    const page = await get("/models", "br");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Encoding")).toBe("br");
    expect(page.headers.get("Cache-Control")).toBe("no-cache");
    const missing = await get("/no/such/page/here", "gzip");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Content-Encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await missing.arrayBuffer())).toString()).toContain("<title>hub</title>");
  });

  it("names a page's own scripts for preloading, and only on that page", async () => {
    const page = await get("/models", "br");
    expect(page.headers.get("Link")).toBe(
      "</assets/models-page-abc123.js>; rel=modulepreload, </assets/filters-abc123.js>; rel=modulepreload",
    );
    // A page the hub does not show (404) and a script get none.
    expect((await get("/alice/missing")).headers.get("Link")).toBeNull();
    expect((await get("/assets/index-abc123.js")).headers.get("Link")).toBeNull();
  });

  it("leaves images as they are, without Vary", async () => {
    const image = await get("/assets/logo-abc123.png", "br, gzip");
    expect(image.headers.get("Content-Encoding")).toBeNull();
    expect(image.headers.get("Vary")).toBeNull();
    expect(image.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("a page's first view", () => {
  const viewRoot = mkdtempSync(join(tmpdir(), "static-web-view-"));
  afterAll(() => rmSync(viewRoot, { recursive: true, force: true }));
  const index = `<!doctype html><html><head><title>Modelhub</title><script src="/theme.js"></script><script type="module" crossorigin src="/assets/index-abc123.js"></script><link rel="stylesheet" crossorigin href="/assets/index-abc123.css"><link rel="stylesheet" href="https://elsewhere.example/x.css"></head><body><div id="root"></div></body></html>`;
  writeFileSync(join(viewRoot, "index.html"), index);
  writeFileSync(join(viewRoot, "index.html.br"), brotliCompressSync(index));
  writeFileSync(join(viewRoot, "page-preloads.json"), JSON.stringify({ model: ["/assets/model-abc123.js"] }));
  const viewApp = new Hono();
  const viewWeb = createWebHandler(
    viewRoot,
    "default-src 'self'",
    (path) => path.startsWith("/alice/"),
    async (path) =>
      path === "/alice/with-card"
        ? { html: '<div id="first-view">the card</div>', title: "alice · x" }
        : undefined,
  );
  viewApp.get("*", async (c) => (await viewWeb(c)) ?? c.text("not the app's", 404));

  it("is written before the app's root, for this caller only, with what its paint waits for preloaded first", async () => {
    const page = await viewApp.request("/alice/with-card", { headers: { "Accept-Encoding": "br" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Encoding")).toBeNull();
    expect(page.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(page.headers.get("Content-Security-Policy")).toBe("default-src 'self'");
    const html = await page.text();
    expect(html).toContain("<title>alice · x</title>");
    expect(html).toContain('<div id="first-view">the card</div><div id="root">');
    expect(page.headers.get("Link")).toBe(
      "</theme.js>; rel=preload; as=script, </assets/index-abc123.css>; rel=preload; as=style; crossorigin, </assets/model-abc123.js>; rel=modulepreload",
    );
  });

  it("is not there for a page without one, nor for a page the app does not show", async () => {
    const plain = await viewApp.request("/alice/no-card", { headers: { "Accept-Encoding": "br" } });
    expect(plain.headers.get("Content-Encoding")).toBe("br");
    expect(plain.headers.get("Cache-Control")).toBe("no-cache");
    expect(brotliDecompressSync(Buffer.from(await plain.arrayBuffer())).toString()).toBe(index);
    const missing = await viewApp.request("/bob/with-card");
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain("first-view");
  });
});
