import { hfPipeline } from "../protocols/hf-pipeline.js";
import { openAiEmbeddings } from "../protocols/openai-media.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, FeatureExtractionOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline, "openai-embeddings": openAiEmbeddings };

export type FeatureExtractionArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { normalize?: boolean; truncate?: boolean };
};

/** feature-extraction */
export function featureExtraction(
  args: FeatureExtractionArgs,
  options?: RunOptions,
): Promise<FeatureExtractionOutput> {
  return runTask("feature-extraction", PROTOCOLS, args as FeatureExtractionArgs & JsonObject, options);
}
