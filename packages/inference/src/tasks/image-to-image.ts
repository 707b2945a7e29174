import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ImageToImageArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { prompt?: string; [key: string]: unknown };
};

/** image-to-image */
export function imageToImage(args: ImageToImageArgs, options?: RunOptions): Promise<Blob> {
  return runTask("image-to-image", args as ImageToImageArgs & JsonObject, options);
}
