import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TextToSpeechArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-speech */
export function textToSpeech(args: TextToSpeechArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-speech", args as TextToSpeechArgs & JsonObject, options);
}
