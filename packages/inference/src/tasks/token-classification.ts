import type { BaseArgs, JsonObject, TokenClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TokenClassificationArgs = BaseArgs & {
  inputs: string;
  parameters?: { aggregation_strategy?: string; ignore_labels?: string[] };
};

/** token-classification */
export function tokenClassification(
  args: TokenClassificationArgs,
  options?: RunOptions,
): Promise<TokenClassificationOutput> {
  return runTask("token-classification", args as TokenClassificationArgs & JsonObject, options);
}
