import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TextClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TextClassificationArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { top_k?: number; function_to_apply?: string };
};

/** text-classification */
export function textClassification(
  args: TextClassificationArgs,
  options?: RunOptions,
): Promise<TextClassificationOutput> {
  return runTask("text-classification", PROTOCOLS, args as TextClassificationArgs & JsonObject, options);
}
