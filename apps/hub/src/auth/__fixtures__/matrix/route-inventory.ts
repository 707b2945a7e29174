import { join } from "node:path";
import { createApp } from "../../../app.js";
import { PROVIDER_ROUTES } from "../../../router/node-router.js";
import { OPENAI_API_ROUTES } from "../../../router/openai-api.js";
import { LFS_ROUTES } from "../../../lfs-xet/lfs-routes.js";
import { REPO_API_ROUTES } from "../../../repos/api-routes.js";
import { FILE_ROUTES } from "../../../repos/resolve-routes.js";
import { createFsBlobStore } from "../../../storage/fs-blob-store.js";
import type { Store } from "../../../store/store.js";

/**
 * Every route the hub answers, from the code itself: the Hono app's registered routes (built with every
 * optional part on: repositories and single sign-on), plus what the raw-path dispatchers answer (the
 * repository API, file downloads, Git LFS) and the router in front of the app. A route added anywhere shows
 * up here, and the authorization matrix fails until its table has a row for it.
 */
export async function hubRoutes(store: Store, scratchDir: string): Promise<string[]> {
  const app = createApp({
    store,
    blobs: await createFsBlobStore(join(scratchDir, "inventory-blobs")),
    oidc: { issuer: "http://127.0.0.1:9", clientId: "inventory", clientSecret: "inventory" },
  });
  const registered = app.routes
    // Middleware (`app.use`) is registered as ALL; the dispatchers among them are listed below.
    .filter((route) => route.method !== "ALL")
    .map((route) => `${route.method} ${route.path}`);
  return [
    ...new Set([
      ...registered,
      ...REPO_API_ROUTES,
      ...FILE_ROUTES,
      ...LFS_ROUTES,
      ...OPENAI_API_ROUTES,
      ...PROVIDER_ROUTES,
    ]),
  ].sort();
}
