import type { AutomaticSpeechRecognitionOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type AutomaticSpeechRecognitionArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** automatic-speech-recognition */
export function automaticSpeechRecognition(
  args: AutomaticSpeechRecognitionArgs,
  options?: RunOptions,
): Promise<AutomaticSpeechRecognitionOutput> {
  return runTask(
    "automatic-speech-recognition",
    args as AutomaticSpeechRecognitionArgs & JsonObject,
    options,
  );
}
