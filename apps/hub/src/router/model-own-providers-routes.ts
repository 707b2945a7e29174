import { type Context, Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { ModelOwnProviders } from "./model-own-providers.js";

/**
 * `GET /api/models/{owner}/{name}/own-providers`: the own providers (the site's, and those of the caller's
 * organizations) that chat with a model, for the model page's providers, snippets and playground. Kept off
 * the public API's `inferenceProviderMapping`, whose providers the hub clients call by name through
 * `/{provider}/...` routes an own provider does not have. The answer depends on who asks: never stored by a
 * cache, and varying with the credentials.
 */
export function modelOwnProvidersRoutes(deps: {
  ownProvidersOf: ModelOwnProviders;
  /** The model of the route, when the caller may see it (a hidden one answers as a missing one). */
  modelOf(c: Context<HubEnv>): Promise<{ id: string }>;
}) {
  const app = new Hono<HubEnv>();
  app.get("/:owner/:name/own-providers", async (c) => {
    c.header("Cache-Control", "private, no-store");
    c.header("Vary", "Authorization, Cookie");
    const model = await deps.modelOf(c);
    return c.json(await deps.ownProvidersOf(c.get("actor"), model.id));
  });
  return app;
}
