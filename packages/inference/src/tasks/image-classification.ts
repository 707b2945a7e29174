import type { BaseArgs, ImageClassificationOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ImageClassificationArgs = BaseArgs & { inputs: Blob; parameters?: { top_k?: number } };

/** image-classification */
export function imageClassification(
  args: ImageClassificationArgs,
  options?: RunOptions,
): Promise<ImageClassificationOutput> {
  return runTask("image-classification", args as ImageClassificationArgs & JsonObject, options);
}
