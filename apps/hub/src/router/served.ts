import { type InferenceTask, isInferenceProvider, providerTaskSupported } from "@modelhub/inference";

/**
 * Tasks the inference client serves but no snippet runs yet: huggingface_hub 2.0 has no method for them,
 * huggingface.js cannot finish a polled fal job as a pasted script, and there is no raw HTTP template for
 * fal's queue. Until one exists the hub does not offer their mappings (a page would show no snippet).
 */
const TASKS_WITHOUT_SNIPPETS: ReadonlySet<string> = new Set(["image-text-to-image", "image-text-to-video"]);

/**
 * Whether the hub can serve a provider mapping end to end (its client, snippets, router and playground all
 * go through the inference registry). The hub does not offer the others: the built-in catalogue's are not
 * loaded, and the admin API refuses them.
 */
export function isServedMapping(provider: string, task: string): boolean {
  return (
    isInferenceProvider(provider) &&
    providerTaskSupported(provider, task as InferenceTask) &&
    !TASKS_WITHOUT_SNIPPETS.has(task)
  );
}
