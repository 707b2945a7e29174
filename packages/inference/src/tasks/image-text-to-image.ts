import { wavespeedJob } from "../protocols/async-jobs.js";
import { falQueue } from "../protocols/fal.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "fal-queue": falQueue, "wavespeed-job": wavespeedJob };

/** An image (optional: some models also generate from the prompt alone) and a prompt in `parameters`. */
export type ImageTextToImageArgs = BaseArgs & {
  inputs?: Blob;
  parameters: { prompt: string; [key: string]: unknown };
};

/** image-text-to-image: edits or re-creates an image as the prompt says (e.g. Qwen/Qwen-Image-Edit). */
export function imageTextToImage(args: ImageTextToImageArgs, options?: RunOptions): Promise<Blob> {
  return runTask("image-text-to-image", PROTOCOLS, args as ImageTextToImageArgs & JsonObject, options);
}
