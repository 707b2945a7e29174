import { Readable } from "node:stream";
import { Hono } from "hono";
import { HubError, NotFoundError } from "../errors.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { RepoScanning } from "../repos/scan-port.js";
import type { SpaceAppLinks } from "./space-app-links.js";

/** The types a static site's files are served as; anything else is a download (never sniffed). */
const SITE_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  json: "application/json",
  map: "application/json",
  txt: "text/plain; charset=utf-8",
  md: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
};

const siteType = (path: string) =>
  SITE_TYPES[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";

/**
 * The Content-Security-Policy of every answer of the spaces origin. `sandbox` without allow-same-origin
 * gives the site an opaque origin even when opened outside the hub's iframe: it reads no cookie (the hub's
 * cookies are per host, not per port, so the spaces origin on another port would otherwise see the ones
 * that are not HttpOnly) and its requests carry no credentials anywhere. Everything else comes from the
 * site itself: no request leaves for another origin (no hub API, no exfiltration), and only the hub may
 * frame it. Inline scripts are allowed: static sites use them, and on this origin there is nothing to steal.
 */
export function spaceSitePolicy(hubOrigins: readonly string[]): string {
  return [
    "sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads",
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${hubOrigins.join(" ")}`,
  ].join("; ");
}

export interface SpacesOriginDeps {
  links: Pick<SpaceAppLinks, "open">;
  repos: Pick<RepoService, "byKey" | "fileAt" | "openContent" | "storedContent">;
  /** Reads Xet-stored files. */
  cas?: Pick<CasService, "fileOfContent" | "read">;
  /** SCAN_POLICY=block: an unsafe file is refused here as on /resolve. */
  scanning?: Pick<RepoScanning, "assertServable">;
  /** The hub's origins (public URL, listening address): the only ones that may frame a space's site. */
  hubOrigins: readonly string[];
  now?: () => number;
}

/**
 * The spaces origin (SPACES_URL): static spaces' sites, served from a signed link the hub mints for a viewer
 * who may read the space (`GET /api/spaces/{id}/app-url/{revision}`). It never reads cookies or
 * Authorization: the link is the whole capability, scoped to one space at one commit.
 */
export function spacesOriginApp(deps: SpacesOriginDeps): Hono {
  const app = new Hono();
  const policy = spaceSitePolicy(deps.hubOrigins);
  app.use(async (c, next) => {
    await next();
    c.header("Content-Security-Policy", policy);
    c.header("X-Content-Type-Options", "nosniff");
    // The link is a capability: it must not travel in a Referer header.
    c.header("Referrer-Policy", "no-referrer");
  });
  // `/{link}` alone: the site's root, with the slash its relative URLs need.
  app.get("/:token{[^/]+}", (c) => c.redirect(`/${c.req.param("token")}/`, 308));
  app.get("/:token{[^/]+}/:path{.*}", async (c) => {
    const grant = await deps.links.open(c.req.param("token"), (deps.now ?? Date.now)());
    const repo = await deps.repos.byKey(grant.repo);
    if (repo?.type !== "space") throw new NotFoundError("This space no longer exists.");
    // Hono has decoded the path; it names a file of this space's tree at this commit, nothing else.
    const asked = c.req.param("path");
    const path = asked === "" || asked.endsWith("/") ? `${asked}index.html` : asked;
    const file = await deps.repos.fileAt(repo, grant.commit, path);
    if (!file) throw new NotFoundError(`${path} is not a file of ${repo.id}.`);
    await deps.scanning?.assertServable(repo, file);
    const headers = {
      "Content-Type": siteType(path),
      "Content-Length": String(file.size),
      // A module script or fetch from the opaque-origin site is a CORS request: the site's own files allow it.
      "Access-Control-Allow-Origin": "*",
      // The link names a commit: the bytes never change.
      "Cache-Control": "private, max-age=3600, immutable",
    };
    if (c.req.method === "HEAD" || file.size === 0) return new Response(null, { status: 200, headers });
    return new Response(Readable.toWeb(await open(deps, repo, file)) as ReadableStream, {
      status: 200,
      headers,
    });
  });
  app.notFound((c) => c.text("Not found: a space's site lives under the link the hub gives.", 404));
  app.onError((error, c) => {
    const status = HubError.isInstance(error) ? error.status : 500;
    return c.text(HubError.isInstance(error) ? error.message : "The spaces origin failed.", status);
  });
  return app;
}

async function open(
  deps: SpacesOriginDeps,
  repo: RepoRecord,
  file: { sha256: string; size: number; lfs: boolean },
): Promise<Readable> {
  const range = { start: 0, end: file.size - 1 };
  const xetFile = file.lfs && deps.cas ? await deps.cas.fileOfContent(repo.key, file.sha256) : undefined;
  if (xetFile && deps.cas && !(await deps.repos.storedContent(file.sha256))) {
    return Readable.from(deps.cas.read(xetFile, range.start, range.end));
  }
  return deps.repos.openContent(file.sha256, range);
}
