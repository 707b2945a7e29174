import { falSync } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import { replicatePrediction } from "../protocols/replicate.js";
import type { ProtocolTable } from "../providers/types.js";
import type { AutomaticSpeechRecognitionOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "hf-pipeline": hfPipeline,
  "fal-sync": falSync,
  "replicate-prediction": replicatePrediction,
};

export type AutomaticSpeechRecognitionArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** automatic-speech-recognition */
export function automaticSpeechRecognition(
  args: AutomaticSpeechRecognitionArgs,
  options?: RunOptions,
): Promise<AutomaticSpeechRecognitionOutput> {
  return runTask(
    "automatic-speech-recognition",
    PROTOCOLS,
    args as AutomaticSpeechRecognitionArgs & JsonObject,
    options,
  );
}
