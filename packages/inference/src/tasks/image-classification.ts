import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, ImageClassificationOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type ImageClassificationArgs = BaseArgs & { inputs: Blob; parameters?: { top_k?: number } };

/** image-classification */
export function imageClassification(
  args: ImageClassificationArgs,
  options?: RunOptions,
): Promise<ImageClassificationOutput> {
  return runTask("image-classification", PROTOCOLS, args as ImageClassificationArgs & JsonObject, options);
}
