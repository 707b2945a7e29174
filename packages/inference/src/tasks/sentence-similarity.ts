import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, SentenceSimilarityOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type SentenceSimilarityArgs = BaseArgs & {
  inputs: { source_sentence: string; sentences: string[] };
  parameters?: JsonObject;
};

/** sentence-similarity */
export function sentenceSimilarity(
  args: SentenceSimilarityArgs,
  options?: RunOptions,
): Promise<SentenceSimilarityOutput> {
  return runTask("sentence-similarity", PROTOCOLS, args as SentenceSimilarityArgs & JsonObject, options);
}
