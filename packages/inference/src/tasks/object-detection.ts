import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, ObjectDetectionOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type ObjectDetectionArgs = BaseArgs & { inputs: Blob; parameters?: { threshold?: number } };

/** object-detection */
export function objectDetection(
  args: ObjectDetectionArgs,
  options?: RunOptions,
): Promise<ObjectDetectionOutput> {
  return runTask("object-detection", PROTOCOLS, args as ObjectDetectionArgs & JsonObject, options);
}
