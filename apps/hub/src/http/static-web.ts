import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context } from "hono";
import { type FirstView, withFirstView } from "./first-view.js";
import { preloadedPage } from "./web-pages.js";

const IMMUTABLE = "public, max-age=31536000, immutable";
const nothingNext = async (): Promise<void> => {};

/**
 * Serves the built web app from `root` through Hono's serve-static, under `contentSecurityPolicy`: files as they are (hashed assets
 * cached for good, everything else revalidated); `index.html` with 200 for the app's pages (`isPage`) and
 * with 404 for any other path, where the app shows its not-found page. Resolves to undefined when the
 * request is not the web app's to answer (not a GET or HEAD, a missing asset, no build).
 * `firstView` may give a page's first view (first-view.ts), written into that page's HTML for this caller.
 */
export function createWebHandler(
  root: string,
  contentSecurityPolicy: string,
  isPage: (path: string, c: Context) => boolean | Promise<boolean>,
  firstView?: (path: string, c: Context) => Promise<FirstView | undefined>,
) {
  const base = resolve(root);
  const indexPath = join(base, "index.html");
  // `precompressed`: the build wrote name.br and name.gz beside each text file (apps/web/build/precompress.ts);
  // serve-static picks the one the client accepts and sets Content-Encoding.
  const files = serveStatic({ root: base, precompressed: true });
  const index = serveStatic({ path: indexPath, precompressed: true });
  const preloads = pagePreloads(base);
  const indexHtml = textFile(indexPath);
  return async (c: Context): Promise<Response | undefined> => {
    // On every answer of the web app (pages, not-found pages, their assets): see content-security-policy.ts.
    c.header("Content-Security-Policy", contentSecurityPolicy);
    const file = await files(c, nothingNext);
    if (file) return withCaching(file, c.req.path.startsWith("/assets/") ? IMMUTABLE : "no-cache");
    // A missing hashed asset stays a plain 404: a script tag must not receive a page.
    if (c.req.path.startsWith("/assets/") || !existsSync(indexPath)) return undefined;
    const found = await index(c, nothingNext);
    const page = found && withCaching(found, "no-cache");
    const path = safeDecode(c.req.path);
    if (!page) return undefined;
    if (await isPage(path, c)) {
      const view = firstView && (await firstView(path, c).catch(() => undefined));
      const html = view && indexHtml();
      if (!view || html === undefined) return withPreloads(page, preloads.forPath(path), []);
      await page.body?.cancel();
      // Written for this caller (a private model's card for those who may read it): no shared cache keeps it,
      // and no validator, so a browser never reuses another answer's view. Uncompressed: a few kilobytes.
      const served = new Response(withFirstView(html, view.html, view.title), {
        status: 200,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "private, no-cache",
          "Content-Security-Policy": contentSecurityPolicy,
        },
      });
      return withPreloads(served, preloads.forPath(path), renderBlocking(html));
    }
    return new Response(page.body, { status: 404, headers: page.headers });
  };
}

/** A text file of the build, read again when it changed (a rebuild while the hub runs); undefined if absent. */
function textFile(path: string): () => string | undefined {
  let read: { mtimeMs: number; text: string } | undefined;
  return () => {
    try {
      const { mtimeMs } = statSync(path);
      if (read?.mtimeMs !== mtimeMs) read = { mtimeMs, text: readFileSync(path, "utf8") };
      return read.text;
    } catch {
      return undefined;
    }
  };
}

/** Where the build lists each preloaded page's scripts (apps/web/build/page-preloads.ts). */
const PAGE_PRELOADS_FILE = "page-preloads.json";
const ASSET_SCRIPT = /^\/assets\/[\w.-]+\.js$/;

/**
 * The scripts of the page at a path, from the build's PAGE_PRELOADS_FILE, read again when the build changed
 * (a rebuild while the hub runs renames every hashed file). No file, or an unreadable one: no preloads.
 */
function pagePreloads(base: string) {
  const file = join(base, PAGE_PRELOADS_FILE);
  let read: { mtimeMs: number; pages: Record<string, string[]> } | undefined;
  const pages = (): Record<string, string[]> => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return {};
    }
    if (read?.mtimeMs !== mtimeMs) {
      let pages: Record<string, string[]> = {};
      try {
        pages = JSON.parse(readFileSync(file, "utf8"));
      } catch {}
      read = { mtimeMs, pages };
    }
    return read.pages;
  };
  return {
    forPath(path: string): string[] {
      const page = preloadedPage(path);
      const scripts = page ? pages()[page] : undefined;
      // Only hashed scripts of the build: nothing else can end up in the header.
      return Array.isArray(scripts) ? scripts.filter((script) => ASSET_SCRIPT.test(String(script))) : [];
    },
  };
}

/**
 * Names the page's own scripts in a `Link: rel=modulepreload` header: the browser fetches and compiles them
 * beside the entry script instead of after it has run (the router asks for a page's chunk only then).
 * `blocking` (a page with a first view: what its first paint waits for) comes first: over HTTP/1.1 the browser
 * opens six connections to the hub, and the stylesheet queued behind thirty scripts held the paint ~1 s.
 */
function withPreloads(page: Response, scripts: string[], blocking: string[]): Response {
  const links = [...blocking, ...scripts.map((script) => `<${script}>; rel=modulepreload`)];
  if (links.length > 0) page.headers.set("Link", links.join(", "));
  return page;
}

const SAME_ORIGIN_PATH = /^\/[\w.-][\w./-]*$/;

/**
 * What the first paint of the page `html` waits for, as `Link` preloads: its stylesheets and its classic
 * (blocking) scripts, same-origin only, with the `crossorigin` mode the page asks them with.
 */
export function renderBlocking(html: string): string[] {
  const head = html.slice(0, Math.max(0, html.indexOf("</head>")));
  const links: string[] = [];
  for (const tag of head.match(/<(?:link|script)\b[^>]*>/g) ?? []) {
    const url = /\s(?:href|src)="([^"]+)"/.exec(tag)?.[1] ?? "";
    if (!SAME_ORIGIN_PATH.test(url)) continue;
    const cors = /\scrossorigin\b/.test(tag) ? "; crossorigin" : "";
    if (tag.startsWith("<link") && /\srel="stylesheet"/.test(tag))
      links.push(`<${url}>; rel=preload; as=style${cors}`);
    else if (tag.startsWith("<script") && !/\stype="module"/.test(tag))
      links.push(`<${url}>; rel=preload; as=script${cors}`);
  }
  return links;
}

/** Content types the build keeps compressed copies of (apps/web/build/precompress.ts). */
const COMPRESSED_TYPE = /^(?:text\/|application\/(?:javascript|json|wasm)|image\/svg)/;

/**
 * Hashed assets are cached for good, everything else revalidated. Every text answer varies on
 * Accept-Encoding (serve-static says so only when it picked a compressed copy), so a shared cache never hands
 * an identity copy to a client that asked for brotli, or the reverse.
 */
function withCaching(response: Response, cacheControl: string): Response {
  response.headers.set("Cache-Control", cacheControl);
  const vary = response.headers.get("Vary") ?? "";
  if (COMPRESSED_TYPE.test(response.headers.get("Content-Type") ?? "") && !/accept-encoding/i.test(vary)) {
    response.headers.append("Vary", "Accept-Encoding");
  }
  return response;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
