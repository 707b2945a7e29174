import { novitaVideo, togetherVideo, wavespeedJob } from "../protocols/async-jobs.js";
import { falQueue } from "../protocols/fal.js";
import { replicatePrediction } from "../protocols/replicate.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "fal-queue": falQueue,
  "replicate-prediction": replicatePrediction,
  "novita-video": novitaVideo,
  "together-video": togetherVideo,
  "wavespeed-job": wavespeedJob,
};

export type TextToVideoArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-video */
export function textToVideo(args: TextToVideoArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-video", PROTOCOLS, args as TextToVideoArgs & JsonObject, options);
}
