import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, ZeroShotClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type ZeroShotClassificationArgs = BaseArgs & {
  inputs: string | string[];
  parameters: { candidate_labels: string[]; multi_label?: boolean };
};

/** zero-shot-classification */
export function zeroShotClassification(
  args: ZeroShotClassificationArgs,
  options?: RunOptions,
): Promise<ZeroShotClassificationOutput> {
  return runTask(
    "zero-shot-classification",
    PROTOCOLS,
    args as ZeroShotClassificationArgs & JsonObject,
    options,
  );
}
