import type { AudioClassificationOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type AudioClassificationArgs = BaseArgs & { inputs: Blob; parameters?: { top_k?: number } };

/** audio-classification */
export function audioClassification(
  args: AudioClassificationArgs,
  options?: RunOptions,
): Promise<AudioClassificationOutput> {
  return runTask("audio-classification", args as AudioClassificationArgs & JsonObject, options);
}
