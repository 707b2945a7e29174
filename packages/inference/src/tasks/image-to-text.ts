import { hfPipeline } from "../protocols/hf-pipeline.js";
import { zaiLayoutParsing } from "../protocols/zai-layout.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, ImageToTextOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline, "zai-layout-parsing": zaiLayoutParsing };

export type ImageToTextArgs = BaseArgs & { inputs: Blob; parameters?: JsonObject };

/** image-to-text */
export function imageToText(args: ImageToTextArgs, options?: RunOptions): Promise<ImageToTextOutput> {
  return runTask("image-to-text", PROTOCOLS, args as ImageToTextArgs & JsonObject, options);
}
