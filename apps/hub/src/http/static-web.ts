import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context } from "hono";

const IMMUTABLE = "public, max-age=31536000, immutable";
const nothingNext = async (): Promise<void> => {};

/**
 * Serves the built web app from `root` through Hono's serve-static, under `contentSecurityPolicy`: files as they are (hashed assets
 * cached for good, everything else revalidated); `index.html` with 200 for the app's pages (`isPage`) and
 * with 404 for any other path, where the app shows its not-found page. Resolves to undefined when the
 * request is not the web app's to answer (not a GET or HEAD, a missing asset, no build).
 */
export function createWebHandler(
  root: string,
  contentSecurityPolicy: string,
  isPage: (path: string, c: Context) => boolean | Promise<boolean>,
) {
  const base = resolve(root);
  const assets = join(base, "assets") + sep;
  const indexPath = join(base, "index.html");
  const files = serveStatic({
    root: base,
    onFound: (path, c) => c.header("Cache-Control", path.startsWith(assets) ? IMMUTABLE : "no-cache"),
  });
  const index = serveStatic({
    path: indexPath,
    onFound: (_path, c) => c.header("Cache-Control", "no-cache"),
  });

  return async (c: Context): Promise<Response | undefined> => {
    // On every answer of the web app (pages, not-found pages, their assets): see content-security-policy.ts.
    c.header("Content-Security-Policy", contentSecurityPolicy);
    const file = await files(c, nothingNext);
    if (file) return file;
    // A missing hashed asset stays a plain 404: a script tag must not receive a page.
    if (c.req.path.startsWith("/assets/") || !existsSync(indexPath)) return undefined;
    const page = await index(c, nothingNext);
    if (!page || (await isPage(safeDecode(c.req.path), c))) return page ?? undefined;
    return new Response(page.body, { status: 404, headers: page.headers });
  };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
