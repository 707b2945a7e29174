import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TextToAudioArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** text-to-audio */
export function textToAudio(args: TextToAudioArgs, options?: RunOptions): Promise<Blob> {
  return runTask("text-to-audio", PROTOCOLS, args as TextToAudioArgs & JsonObject, options);
}
