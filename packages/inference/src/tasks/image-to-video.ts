import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ImageToVideoArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { prompt?: string; [key: string]: unknown };
};

/** image-to-video */
export function imageToVideo(args: ImageToVideoArgs, options?: RunOptions): Promise<Blob> {
  return runTask("image-to-video", args as ImageToVideoArgs & JsonObject, options);
}
