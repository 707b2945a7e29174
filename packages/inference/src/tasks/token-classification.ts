import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TokenClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TokenClassificationArgs = BaseArgs & {
  inputs: string;
  parameters?: { aggregation_strategy?: string; ignore_labels?: string[] };
};

/** token-classification */
export function tokenClassification(
  args: TokenClassificationArgs,
  options?: RunOptions,
): Promise<TokenClassificationOutput> {
  return runTask("token-classification", PROTOCOLS, args as TokenClassificationArgs & JsonObject, options);
}
