import type { ProviderDefinition } from "../context.js";
import { hfInference } from "./hf-inference.js";
import { openAiCompatibleProviders } from "./openai-compatible-providers.js";

/** Every provider the sim serves, mounted at `{simUrl}/{name}`. */
export const PROVIDERS: readonly ProviderDefinition[] = [hfInference, ...openAiCompatibleProviders];

export const PROVIDER_NAMES: readonly string[] = PROVIDERS.map((provider) => provider.name);
