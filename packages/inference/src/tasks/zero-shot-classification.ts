import type { BaseArgs, JsonObject, ZeroShotClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type ZeroShotClassificationArgs = BaseArgs & {
  inputs: string | string[];
  parameters: { candidate_labels: string[]; multi_label?: boolean };
};

/** zero-shot-classification */
export function zeroShotClassification(
  args: ZeroShotClassificationArgs,
  options?: RunOptions,
): Promise<ZeroShotClassificationOutput> {
  return runTask("zero-shot-classification", args as ZeroShotClassificationArgs & JsonObject, options);
}
