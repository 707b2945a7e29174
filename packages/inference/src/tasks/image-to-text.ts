import type { BaseArgs, ImageToTextOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ImageToTextArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** image-to-text */
export function imageToText(args: ImageToTextArgs, options?: RunOptions): Promise<ImageToTextOutput> {
  return runTask("image-to-text", args as ImageToTextArgs & JsonObject, options);
}
