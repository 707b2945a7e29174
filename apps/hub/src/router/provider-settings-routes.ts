import { INFERENCE_PROVIDERS, isInferenceProvider, providerDisplayName } from "@modelhub/inference";
import { type Context, Hono } from "hono";
import { accountOwner } from "../accounts/signed-in.js";
import { InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { Store } from "../store/store.js";

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
export function settingsInferenceProvidersRoutes(deps: { store: Store; maxBodyBytes: number }) {
  const app = new Hono<HubEnv>();

  const owner = (c: Context<HubEnv>) => accountOwner(c, "Sign in to set your providers.");

  const answer = (providers: readonly string[]): InferenceProviderSettings => ({
    providers: [...providers],
    available: INFERENCE_PROVIDERS.map((id) => ({ id, displayName: providerDisplayName(id) })),
  });

  app.get("/", async (c) => {
    const user = await owner(c);
    c.header("Cache-Control", "no-store");
    return c.json(answer(await deps.store.providerPreferences.get(user.id)));
  });

  app.put("/", async (c) => {
    const user = await owner(c);
    const providers = parseProviderOrder(await readJsonBody(c, deps.maxBodyBytes));
    await deps.store.providerPreferences.set(user.id, providers);
    return c.json(answer(providers));
  });

  return app;
}

/** `{providers: string[]}`: known providers, each once. */
export function parseProviderOrder(body: unknown): string[] {
  const providers = (body as { providers?: unknown } | null)?.providers;
  if (!Array.isArray(providers)) {
    throw new InvalidInputError('Expected {"providers": ["together", ...]}, most preferred first.');
  }
  const seen = new Set<string>();
  for (const provider of providers) {
    if (!isInferenceProvider(provider)) {
      throw new InvalidInputError(
        `Unknown provider ${JSON.stringify(String(provider).slice(0, 60))}. Known: ${INFERENCE_PROVIDERS.join(", ")}.`,
      );
    }
    if (seen.has(provider)) throw new InvalidInputError(`Provider ${provider} is listed twice.`);
    seen.add(provider);
  }
  return [...seen];
}
