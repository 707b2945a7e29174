import { INFERENCE_PROVIDERS, providerDisplayName } from "@modelhub/inference";
import { Hono, type MiddlewareHandler } from "hono";
import { accountOwner, signedInUser } from "../accounts/signed-in.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { type ProviderSettingsService, providerOrderSchema } from "./provider-settings-service.js";

/** The answer of both methods: the user's order, and every provider the hub knows (for a settings page). */
export interface InferenceProviderSettings {
  /** The user's providers, most preferred first; empty: the hub's default order. */
  providers: string[];
  /** Every provider, in the hub's default order, with its display name. */
  available: Array<{ id: string; displayName: string }>;
}

/**
 * The signed-in user's order of inference providers (the public hub's Settings > Inference Providers):
 * `GET /api/settings/inference-providers`, `PUT` `{providers: ["together", "groq", ...]}`. The router picks
 * among a model's providers in this order when the caller names none (`owner/name` or `provider: "auto"`);
 * providers the user left out follow in the hub's default order. Allowed by `authorize(actor, "manage",
 * user)`: a web session (with its CSRF token) or a write token.
 */
export function settingsInferenceProvidersRoutes(deps: {
  providerSettings: ProviderSettingsService;
  maxBodyBytes: number;
}) {
  const app = new Hono<HubEnv>();
  // Checked before the body is read: a caller who may not change the order learns nothing from it.
  const owner: MiddlewareHandler<HubEnv> = async (c, next) => {
    await accountOwner(c, "Sign in to set your providers.");
    await next();
  };
  const answer = (providers: readonly string[]): InferenceProviderSettings => ({
    providers: [...providers],
    available: INFERENCE_PROVIDERS.map((id) => ({ id, displayName: providerDisplayName(id) })),
  });

  app.get("/", owner, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(answer(await deps.providerSettings.order(signedInUser(c).user.id)));
  });

  app.put("/", owner, validate("json", providerOrderSchema, { maxBytes: deps.maxBodyBytes }), async (c) => {
    const { providers } = c.req.valid("json");
    await deps.providerSettings.setOrder(signedInUser(c).user.id, providers);
    return c.json(answer(providers));
  });

  return app;
}
