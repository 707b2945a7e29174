import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, ZeroShotImageClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

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
    PROTOCOLS,
    args as ZeroShotImageClassificationArgs & JsonObject,
    options,
  );
}
