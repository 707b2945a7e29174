import { falSync } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import { openAiSpeech } from "../protocols/openai-media.js";
import { replicatePrediction } from "../protocols/replicate.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "hf-pipeline": hfPipeline,
  "fal-sync": falSync,
  "replicate-prediction": replicatePrediction,
  "openai-speech": openAiSpeech,
};

export type TextToSpeechArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-speech */
export function textToSpeech(args: TextToSpeechArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-speech", PROTOCOLS, args as TextToSpeechArgs & JsonObject, options);
}
