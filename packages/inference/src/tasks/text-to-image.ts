import { bflJob, wavespeedJob, zaiImageJob } from "../protocols/async-jobs.js";
import { falSync } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import { hyperbolicImages, openAiImages } from "../protocols/openai-media.js";
import { replicatePrediction } from "../protocols/replicate.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, ImageOutputType, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "hf-pipeline": hfPipeline,
  "openai-images": openAiImages,
  "hyperbolic-images": hyperbolicImages,
  "fal-sync": falSync,
  "replicate-prediction": replicatePrediction,
  "bfl-job": bflJob,
  "wavespeed-job": wavespeedJob,
  "zai-image-job": zaiImageJob,
};

export type TextToImageArgs = BaseArgs & {
  inputs: string;
  parameters?: {
    negative_prompt?: string;
    width?: number;
    height?: number;
    num_inference_steps?: number;
    guidance_scale?: number;
    seed?: number;
    [key: string]: unknown;
  };
};

type Output<O extends ImageOutputType | undefined> = O extends "url" | "dataUrl"
  ? string
  : O extends "json"
    ? Record<string, unknown>
    : Blob;

/**
 * text-to-image. `outputType`: "blob" (default), "url" (the provider's URL, or a data URL when it
 * answers with bytes), "dataUrl", or "json" (the provider's raw answer).
 */
export function textToImage<O extends ImageOutputType | undefined = undefined>(
  args: TextToImageArgs,
  options?: RunOptions & { outputType?: O },
): Promise<Output<O>> {
  return runTask("text-to-image", PROTOCOLS, args as TextToImageArgs & JsonObject, options);
}
