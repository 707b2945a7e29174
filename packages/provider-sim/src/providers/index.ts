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
