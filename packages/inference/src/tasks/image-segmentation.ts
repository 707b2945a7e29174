import type { BaseArgs, ImageSegmentationOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ImageSegmentationArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { threshold?: number; subtask?: string };
};

/** image-segmentation */
export function imageSegmentation(
  args: ImageSegmentationArgs,
  options?: RunOptions,
): Promise<ImageSegmentationOutput> {
  return runTask("image-segmentation", args as ImageSegmentationArgs & JsonObject, options);
}
