import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { AudioClassificationOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type AudioClassificationArgs = BaseArgs & { inputs: Blob; parameters?: { top_k?: number } };

/** audio-classification */
export function audioClassification(
  args: AudioClassificationArgs,
  options?: RunOptions,
): Promise<AudioClassificationOutput> {
  return runTask("audio-classification", PROTOCOLS, args as AudioClassificationArgs & JsonObject, options);
}
