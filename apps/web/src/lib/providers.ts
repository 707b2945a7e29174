import { INFERENCE_PROVIDERS, PROVIDER_DISPLAY_NAMES, providerDisplayName } from "@modelhub/inference";

/**
 * Inference providers a model may be mapped to, with the names the UI shows: both come from the inference
 * provider registry, the one list of providers (a provider added there appears here, filters included).
 */
export const PROVIDER_LABELS: Readonly<Record<string, string>> = PROVIDER_DISPLAY_NAMES;

export const PROVIDER_IDS: readonly string[] = INFERENCE_PROVIDERS;

export function providerLabel(provider: string): string {
  return providerDisplayName(provider);
}
