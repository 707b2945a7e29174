/**
 * The calls both generators are timed on: the golden files' calls of packages/snippets (one list, kept
 * there), handed to each library in its own call shape.
 */
import { GOLDEN_CASES, type GoldenCase } from "../../packages/snippets/src/testing/golden-cases.js";

export const CASES: GoldenCase[] = GOLDEN_CASES;

/** Arguments for @modelhub/snippets' getInferenceSnippets(model, accessToken, provider, providerModelId, options). */
export function oursArgs(c: GoldenCase) {
  return [c.model, c.accessToken, c.provider, c.providerModelId, c.options ?? {}] as const;
}

/**
 * Arguments for @huggingface/inference's snippets.getInferenceSnippets(model, provider, mapping, opts).
 * It has no self-hosted hub option (those cases render its defaults); a non-hf_ key is a direct request.
 */
export function theirsArgs(c: GoldenCase) {
  const options = c.options ?? {};
  const mapping = {
    hfModelId: c.model.id,
    provider: c.provider,
    providerId: c.providerModelId ?? c.model.id,
    status: "live",
    task: c.model.tags.includes("conversational") ? "conversational" : c.model.pipeline_tag,
  };
  const opts: Record<string, unknown> = {};
  for (const key of ["streaming", "temperature", "top_p", "billTo"] as const) {
    if (options[key] !== undefined) opts[key] = options[key];
  }
  if (c.accessToken && options.inlineToken) opts.accessToken = c.accessToken;
  if (c.accessToken && !c.accessToken.startsWith("hf_")) opts.directRequest = true;
  return [c.model, c.provider, mapping, opts] as const;
}
