import type { BaseArgs, JsonObject, ObjectDetectionOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ObjectDetectionArgs = BaseArgs & { inputs: Blob; parameters?: { threshold?: number } };

/** object-detection */
export function objectDetection(
  args: ObjectDetectionArgs,
  options?: RunOptions,
): Promise<ObjectDetectionOutput> {
  return runTask("object-detection", args as ObjectDetectionArgs & JsonObject, options);
}
