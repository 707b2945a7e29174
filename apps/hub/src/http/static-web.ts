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
 * Serves the built web app from `root`: files as they are, and `index.html` for any other GET that asks for
 * HTML (client-side routes). Returns undefined when the request is not the web app's to answer.
 */
export function createWebHandler(root: string) {
  const base = resolve(root);
  const indexPath = join(base, "index.html");

  function file(path: string, c: Context, immutable: boolean): Response {
    const type = CONTENT_TYPES[extname(path)] ?? "application/octet-stream";
    c.header("Content-Type", type);
    c.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    return c.body(readFileSync(path));
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
    // Model ids contain dots ("Llama-3.1-8B"), so a page is recognised by what the browser accepts, not by
    // the shape of its path. The root is always the app, whatever the caller accepts (`curl localhost:...`).
    const wantsHtml = relative === "/" || (c.req.header("Accept") ?? "").includes("text/html");
    if (wantsHtml && existsSync(indexPath)) return file(indexPath, c, false);
    return undefined;
  };
}
