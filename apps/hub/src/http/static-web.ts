import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve, sep } from "node:path";
import type { Context } from "hono";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/**
 * Serves the built web app from `root`: files as they are; `index.html` with 200 for the app's pages
 * (`isPage`) and with 404 for any other path, where the app shows its not-found page. Returns undefined
 * when the request is not the web app's to answer (not a GET, a missing asset, no build).
 */
export function createWebHandler(root: string, isPage: (path: string, c: Context) => boolean) {
  const base = resolve(root);
  const indexPath = join(base, "index.html");

  function file(path: string, c: Context, immutable: boolean, status: 200 | 404 = 200): Response {
    const type = CONTENT_TYPES[extname(path)] ?? "application/octet-stream";
    c.header("Content-Type", type);
    c.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    return c.body(readFileSync(path), status);
  }

  return (c: Context): Response | undefined => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return undefined;
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path);
    } catch {
      return undefined;
    }
    const candidate = resolve(base, `.${relative}`);
    // Only files inside the dist directory; `..` and encoded tricks resolve outside it and fall through.
    if (candidate.startsWith(base + sep) && !relative.includes("\0") && existsSync(candidate)) {
      if (statSync(candidate).isFile()) return file(candidate, c, relative.startsWith("/assets/"));
    }
    // A missing hashed asset stays a plain 404: a script tag must not receive a page.
    if (relative.startsWith("/assets/") || !existsSync(indexPath)) return undefined;
    return file(indexPath, c, false, isPage(relative, c) ? 200 : 404);
  };
}
