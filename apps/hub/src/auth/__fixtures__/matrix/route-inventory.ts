import { join } from "node:path";
import type { Hono } from "hono";
import { createApp } from "../../../app.js";
import type { HubEnv } from "../../../http/hub-env.js";
import { createFsBlobStore } from "../../../storage/fs-blob-store.js";
import type { Store } from "../../../store/store.js";

/**
 * The name a table row gives a route: the Hono pattern itself, except for the repository routes
 * (repos/repo-routes.ts), whose id, revision and path parameters come in several forms and are named once:
 * `/api/:type{...}/:namespace/:name/tree/:revision/:path{.*}` is "/api/{type}s/{id}/tree",
 * `/:prefix{datasets|spaces}/:name/resolve/:revision/:path{.+}` is "/{id}/resolve/{revision}/{path}".
 */
export function routeName(method: string, path: string): string {
  const api = /^\/api\/:type\{[^}]*\}\/(?::namespace\/)?:name(\/[a-z-]+)?(?:\/:revision.*)?$/.exec(path);
  if (api) return `${method} /api/{type}s/{id}${api[1] ?? ""}`;
  const file = /^(?:\/:prefix\{[^}]*\})?(?:\/:namespace(?:\{[^}]*\})?)?\/:name(\{[^}]*\})?(\/.*)$/.exec(path);
  if (file) {
    const id = file[1]?.endsWith(".git}") ? "{id}.git" : "{id}";
    const rest = file[2]!.replace(/:revision/, "{revision}").replace(/:path\{[^}]*\}/, "{path}");
    return `${method} /${id}${rest}`;
  }
  return `${method} ${path.replace(/^(\/api\/lfs-(?:upload|complete|download|verify))\/:grant$/, "$1/{grant}")}`;
}

/**
 * Every route the hub answers, from the code itself: the Hono app's registered routes (built with every
 * optional part on: repositories and single sign-on), named as the table names them (routeName). A route
 * added anywhere shows up here, and the authorization matrix fails until its table has a row for it. `extend` adds routes to the app first (the test that shows it).
 */
export async function hubRoutes(
  store: Store,
  scratchDir: string,
  extend?: (app: Hono<HubEnv>) => void,
): Promise<string[]> {
  const app = createApp({
    store,
    blobs: await createFsBlobStore(join(scratchDir, "inventory-blobs")),
    oidc: { issuer: "http://127.0.0.1:9", clientId: "inventory", clientSecret: "inventory" },
    // The scanner's admin routes exist once it is on (no worker runs: nothing here starts it).
    scanning: {
      scanFile: () => Promise.reject(new Error("the route inventory scans nothing")),
      rulesVersion: "inventory",
    },
    // The dataset viewer's API exists once it has a directory (nothing here converts).
    viewer: { dir: join(scratchDir, "inventory-viewer") },
  });
  extend?.(app);
  const registered = app.routes
    // Middleware (`app.use`) is registered as ALL.
    .filter((route) => route.method !== "ALL")
    .map((route) => routeName(route.method, route.path));
  return [...new Set(registered)].sort();
}

/** The routes no row of the table names. */
export function routesWithoutRows(routes: readonly string[], rows: readonly { route: string }[]): string[] {
  const listed = new Set(rows.map((row) => row.route));
  return routes.filter((route) => !listed.has(route));
}
