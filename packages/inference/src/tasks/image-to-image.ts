import { wavespeedJob } from "../protocols/async-jobs.js";
import { falSync } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import { togetherImageEdit } from "../protocols/openai-media.js";
import { replicatePrediction } from "../protocols/replicate.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "hf-pipeline": hfPipeline,
  "fal-sync": falSync,
  "replicate-prediction": replicatePrediction,
  "wavespeed-job": wavespeedJob,
  "together-image-edit": togetherImageEdit,
};

export type ImageToImageArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { prompt?: string; [key: string]: unknown };
};

/** image-to-image */
export function imageToImage(args: ImageToImageArgs, options?: RunOptions): Promise<Blob> {
  return runTask("image-to-image", PROTOCOLS, args as ImageToImageArgs & JsonObject, options);
}
