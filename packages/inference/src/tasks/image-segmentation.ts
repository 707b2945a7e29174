import { falQueue } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, ImageSegmentationOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline, "fal-queue": falQueue };

export type ImageSegmentationArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { threshold?: number; subtask?: string };
};

/** image-segmentation */
export function imageSegmentation(
  args: ImageSegmentationArgs,
  options?: RunOptions,
): Promise<ImageSegmentationOutput> {
  return runTask("image-segmentation", PROTOCOLS, args as ImageSegmentationArgs & JsonObject, options);
}
