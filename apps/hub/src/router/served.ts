import { type InferenceTask, isInferenceProvider, providerTaskSupported } from "@modelhub/inference";

/**
 * Whether the hub can serve a provider mapping end to end (its client, snippets, router and playground all
 * go through the inference registry). The hub does not offer the others: the built-in catalogue's are not
 * loaded, and the admin API refuses them.
 */
export function isServedMapping(provider: string, task: string): boolean {
  return isInferenceProvider(provider) && providerTaskSupported(provider, task as InferenceTask);
}
