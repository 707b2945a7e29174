/**
 * The two HTTP routes a hub mounts to serve the widget: the script (with validators, so browsers and
 * CDNs revalidate cheaply) and its data (JSON any origin may read). Errors are answered here, with CORS
 * headers, because an embedding page can only read a cross-origin error that carries them.
 */

import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  parseTopProductsQuery,
  selectProducts,
  type TopProduct,
  type TopProductsQuery,
  type TopProductsResponse,
  toWidgetProduct,
  WIDGET_DATA_PATH,
  WIDGET_SCRIPT_PATH,
  WIDGET_SCRIPT_VERSIONS,
} from "../data-api.js";
import { getTopProductsScript } from "../script-bundle.js";
import { acceptsGzip, isNotModified } from "./conditional.js";

export interface WidgetRoutesDeps {
  /** The hub's ranking: top models first, honouring `owner` and `ids` when given. */
  listTopModels(opts: TopProductsQuery): Promise<TopProduct[]> | TopProduct[];
  /** Public base URL of the hub (model links, credits); default: the request's origin. */
  hubUrl?: string;
  /** Told when `listTopModels` fails; the caller still gets a 503. */
  onError?: (error: unknown) => void;
}

/** The latest script may change on deploy: short freshness, then revalidation by ETag. */
export const LATEST_SCRIPT_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=86400";
/** A pinned version only changes for fixes: a day fresh, a week stale-while-revalidate. */
export const PINNED_SCRIPT_CACHE_CONTROL = "public, max-age=86400, stale-while-revalidate=604800";
export const DATA_CACHE_CONTROL = "public, max-age=60";

const CROSS_ORIGIN_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  // Embedding sites load these from another origin; a hub-wide `same-origin` policy would block them.
  "Cross-Origin-Resource-Policy": "cross-origin",
  "X-Content-Type-Options": "nosniff",
} as const;

const JAVASCRIPT = "text/javascript; charset=utf-8";

const TITLES: Partial<Record<number, string>> = {
  400: "Bad Request",
  404: "Not Found",
  503: "Service Unavailable",
};

function problem(c: Context, status: ContentfulStatusCode, code: string, detail: string): Response {
  return c.json({ error: detail, code, status, title: TITLES[status] ?? "Error", detail }, status, {
    ...CROSS_ORIGIN_HEADERS,
    "Cache-Control": "no-store",
  });
}

export function widgetRoutes(deps: WidgetRoutesDeps): Hono {
  const app = new Hono();

  app.get(WIDGET_SCRIPT_PATH, async (c) => {
    const version = c.req.query("version");
    if (version !== undefined && !WIDGET_SCRIPT_VERSIONS.includes(version)) {
      // Still JavaScript, so a page pinning a version that does not exist gets a harmless no-op.
      const known = WIDGET_SCRIPT_VERSIONS.join(", ");
      return c.body(
        `/* Modelhub widget: no script version ${JSON.stringify(version)}; versions: ${known} */\n`,
        404,
        {
          ...CROSS_ORIGIN_HEADERS,
          "Content-Type": JAVASCRIPT,
          "Cache-Control": "public, max-age=300",
        },
      );
    }
    const script = await getTopProductsScript();
    // Each encoding is its own representation, so it gets its own strong validator.
    const gzipEtag = `${script.etag.slice(0, -1)}-gz"`;
    const gzipped = acceptsGzip(c.req.header("accept-encoding") ?? null);
    const headers = {
      ...CROSS_ORIGIN_HEADERS,
      ETag: gzipped ? gzipEtag : script.etag,
      "Last-Modified": script.lastModified.toUTCString(),
      "Cache-Control": version === undefined ? LATEST_SCRIPT_CACHE_CONTROL : PINNED_SCRIPT_CACHE_CONTROL,
      Vary: "Accept-Encoding",
    };
    if (isNotModified(c.req.raw.headers, [script.etag, gzipEtag], script.lastModified)) {
      return c.body(null, 304, headers);
    }
    if (!gzipped) return c.body(script.code, 200, { ...headers, "Content-Type": JAVASCRIPT });
    return c.body(script.gzip as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      "Content-Type": JAVASCRIPT,
      "Content-Encoding": "gzip",
    });
  });

  app.options(WIDGET_DATA_PATH, (c) =>
    c.body(null, 204, {
      ...CROSS_ORIGIN_HEADERS,
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Max-Age": "86400",
    }),
  );

  app.get(WIDGET_DATA_PATH, async (c) => {
    const parsed = parseTopProductsQuery(new URL(c.req.url).searchParams);
    if (!parsed.ok) return problem(c, 400, "invalid_input", parsed.problem);
    let ranked: TopProduct[];
    try {
      ranked = await deps.listTopModels(parsed.query);
    } catch (error) {
      deps.onError?.(error);
      return problem(c, 503, "unavailable", "The top products are unavailable right now.");
    }
    const hubUrl = (deps.hubUrl ?? new URL(c.req.url).origin).replace(/\/+$/, "");
    const body: TopProductsResponse = {
      version: 1,
      hubUrl,
      products: selectProducts(ranked, parsed.query).map((product) => toWidgetProduct(product, hubUrl)),
    };
    return c.json(body, 200, { ...CROSS_ORIGIN_HEADERS, "Cache-Control": DATA_CACHE_CONTROL });
  });

  return app;
}
