import { INFERENCE_PROVIDERS, isInferenceProvider } from "@modelhub/inference";
import { z } from "zod";
import type { Store } from "../store/store.js";

/**
 * Each user's order of inference providers (Settings > Inference Providers): read by the settings API and
 * the model API (`inferenceProviderMapping` in the user's order), written by the settings API.
 */
export function providerSettingsService(store: Pick<Store, "providerPreferences">) {
  return {
    /** The user's providers, most preferred first; empty: the hub's default order. */
    order: (userId: number): Promise<readonly string[]> => store.providerPreferences.get(userId),
    setOrder: (userId: number, providers: readonly string[]): Promise<void> =>
      store.providerPreferences.set(userId, providers),
  };
}

export type ProviderSettingsService = ReturnType<typeof providerSettingsService>;

/** `{providers: string[]}`: known providers, each once, most preferred first. */
export const providerOrderSchema = z.object(
  {
    providers: z
      .array(
        z.string().refine(isInferenceProvider, {
          error: (issue) =>
            `must name a known provider, not ${JSON.stringify(String(issue.input).slice(0, 60))}. Known: ${INFERENCE_PROVIDERS.join(", ")}.`,
        }),
        { error: 'must be a list of providers: {"providers": ["together", ...]}, most preferred first.' },
      )
      .superRefine((providers, context) => {
        const seen = new Set<string>();
        for (const [index, provider] of providers.entries()) {
          if (seen.has(provider))
            context.addIssue({ code: "custom", path: [index], message: `lists ${provider} twice.` });
          seen.add(provider);
        }
      }),
  },
  { error: 'must be {"providers": ["together", ...]}, most preferred first.' },
);
