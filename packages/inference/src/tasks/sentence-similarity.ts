import type { BaseArgs, JsonObject, SentenceSimilarityOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type SentenceSimilarityArgs = BaseArgs & {
  inputs: { source_sentence: string; sentences: string[] };
  parameters?: JsonObject;
};

/** sentence-similarity */
export function sentenceSimilarity(
  args: SentenceSimilarityArgs,
  options?: RunOptions,
): Promise<SentenceSimilarityOutput> {
  return runTask("sentence-similarity", args as SentenceSimilarityArgs & JsonObject, options);
}
