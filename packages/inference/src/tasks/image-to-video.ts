import { togetherVideo, wavespeedJob } from "../protocols/async-jobs.js";
import { falQueue } from "../protocols/fal.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "fal-queue": falQueue,
  "wavespeed-job": wavespeedJob,
  "together-video": togetherVideo,
};

export type ImageToVideoArgs = BaseArgs & {
  inputs: Blob;
  parameters?: { prompt?: string; [key: string]: unknown };
};

/** image-to-video */
export function imageToVideo(args: ImageToVideoArgs, options?: RunOptions): Promise<Blob> {
  return runTask("image-to-video", PROTOCOLS, args as ImageToVideoArgs & JsonObject, options);
}
