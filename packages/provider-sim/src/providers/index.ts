import type { ProviderDefinition } from "../context.js";
import { blackForestLabs } from "./black-forest-labs.js";
import { falAi } from "./fal-ai.js";
import { hfInference } from "./hf-inference.js";
import { openAiCompatibleProviders } from "./openai-compatible-providers.js";
import { replicate } from "./replicate.js";
import { wavespeed } from "./wavespeed.js";

/** Every provider the sim serves, mounted at `{simUrl}/{name}`. */
export const PROVIDERS: readonly ProviderDefinition[] = [
  hfInference,
  blackForestLabs,
  falAi,
  replicate,
  wavespeed,
  ...openAiCompatibleProviders,
];

export const PROVIDER_NAMES: readonly string[] = PROVIDERS.map((provider) => provider.name);

export interface SimulatedProvider {
  name: string;
  /** The provider's real API base URL: what `{simUrl}/{name}` stands in for. */
  realBaseUrl: string;
  auth: ProviderDefinition["auth"];
  /** `METHOD path` of each route under the mount point. */
  routes: string[];
}

/** What the sim serves, for routers and tools that map real base URLs onto the sim. */
export function simulatedProviders(): SimulatedProvider[] {
  return PROVIDERS.map((provider) => ({
    name: provider.name,
    realBaseUrl: provider.realBaseUrl,
    auth: provider.auth,
    routes: provider.routes.map((route) => `${route.method} ${route.path}`),
  }));
}
