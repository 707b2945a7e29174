import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TextToAudioArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-audio */
export function textToAudio(args: TextToAudioArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-audio", args as TextToAudioArgs & JsonObject, options);
}
