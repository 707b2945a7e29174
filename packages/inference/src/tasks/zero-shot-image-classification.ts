import type { BaseArgs, JsonObject, ZeroShotImageClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ZeroShotImageClassificationArgs = BaseArgs & {
  inputs: Blob | string;
  parameters: { candidate_labels: string[] };
};

/** zero-shot-image-classification */
export function zeroShotImageClassification(
  args: ZeroShotImageClassificationArgs,
  options?: RunOptions,
): Promise<ZeroShotImageClassificationOutput> {
  return runTask(
    "zero-shot-image-classification",
    args as ZeroShotImageClassificationArgs & JsonObject,
    options,
  );
}
