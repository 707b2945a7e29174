import { falQueue } from "../protocols/fal.js";
import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { AudioToAudioOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline, "fal-queue": falQueue };

export type AudioToAudioArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** audio-to-audio */
export function audioToAudio(args: AudioToAudioArgs, options?: RunOptions): Promise<AudioToAudioOutput> {
  return runTask("audio-to-audio", PROTOCOLS, args as AudioToAudioArgs & JsonObject, options);
}
