import type { AudioToAudioOutput, BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type AudioToAudioArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** audio-to-audio */
export function audioToAudio(args: AudioToAudioArgs, options?: RunOptions): Promise<AudioToAudioOutput> {
  return runTask("audio-to-audio", args as AudioToAudioArgs & JsonObject, options);
}
