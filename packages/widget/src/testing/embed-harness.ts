/**
 * Test and screenshot support: a hub-like server (the real widgetRoutes on @hono/node-server) and a host
 * site on a different origin, both on loopback, plus a chromium launcher. Not part of the package build.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type Browser, chromium } from "playwright-core";
import type { TopProduct, TopProductsQuery } from "../data-api.js";
import { widgetRoutes } from "../server/widget-routes.js";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
}

export interface RunningServer {
  /** Base URL, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

export interface TestHub extends RunningServer {
  /** Every query the ranking was asked, in order. */
  queries: TopProductsQuery[];
  /** While true, the ranking throws (the data endpoint answers 503). */
  down: boolean;
}

/** A hub serving the widget routes over a fixed ranking; honours `owner` and `ids` like a real store. */
export async function startHub(products: readonly TopProduct[]): Promise<TestHub> {
  const app = new Hono();
  const hub = { queries: [] as TopProductsQuery[], down: false };
  app.route(
    "/",
    widgetRoutes({
      listTopModels(query) {
        hub.queries.push(query);
        if (hub.down) throw new Error("ranking unavailable");
        const owned = products.filter((product) => !query.owner || product.id.startsWith(`${query.owner}/`));
        return query.ids
          ? owned.filter((product) => query.ids?.includes(product.id))
          : owned.slice(0, query.limit);
      },
    }),
  );
  const running = await listen(app.fetch);
  return Object.assign(hub, running);
}

/** A server answering the data path with a fixed body, as a broken or malicious hub might. */
export function startRawDataServer(body: string, contentType = "application/json"): Promise<RunningServer> {
  return listen(
    () =>
      new Response(body, { headers: { "Content-Type": contentType, "Access-Control-Allow-Origin": "*" } }),
  );
}

export interface HostSite extends RunningServer {
  /** Serves `html` at a fresh path and returns its URL. */
  page(html: string): string;
  /** Serves any other file (a script bundle) at a fresh path and returns its URL. */
  file(body: string, contentType: string): string;
}

/** The embedding site: `http://localhost:<port>`, a different origin from the hub's 127.0.0.1. */
export function startHostSite(): Promise<HostSite> {
  const files = new Map<string, { body: string; contentType: string }>();
  const server: Server = createServer((request, response) => {
    const file = files.get(request.url ?? "");
    response.writeHead(file ? 200 : 404, { "Content-Type": file?.contentType ?? "text/plain" });
    response.end(file?.body ?? "not found");
  });
  const add = (extension: string, body: string, contentType: string) => {
    const path = `/file-${files.size + 1}.${extension}`;
    files.set(path, { body, contentType });
    return path;
  };
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const url = `http://localhost:${port}`;
      resolve({
        url,
        page: (html) => `${url}${add("html", html, "text/html; charset=utf-8")}`,
        file: (body, contentType) => `${url}${add("js", body, contentType)}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** CSS a careless or hostile host page might ship: it must not hide, recolour or reshape the widget. */
export const HOSTILE_CSS = `
* { display: none !important; color: red !important; font: 40px/3 "Comic Sans MS", serif !important;
    margin: 30px !important; padding: 0 !important; border: 5px dashed red !important; box-shadow: none !important;
    --bg: red; --fg: red; --cols: 1; }
html, body { display: block !important; background: #fff !important; }
body > p, body > .slot { display: block !important; }
modelhub-top-products { display: none !important; visibility: hidden !important; opacity: 0 !important; }
section, h2, ol, li, a, span, div, footer { all: unset !important; background: red !important; }
.mh, .card, .title, .grid, .credits { display: none !important; }
:root { font-size: 4px !important; }
`;

export function hostPage(options: { body: string; css?: string; head?: string; title?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${options.head ?? ""}
<title>${options.title ?? "Host"}</title><style>${options.css ?? ""}</style></head><body>${options.body}</body></html>`;
}
