import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TextToVideoArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-video */
export function textToVideo(args: TextToVideoArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-video", args as TextToVideoArgs & JsonObject, options);
}
