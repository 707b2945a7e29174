import type { BaseArgs, JsonObject, TextClassificationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TextClassificationArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { top_k?: number; function_to_apply?: string };
};

/** text-classification */
export function textClassification(
  args: TextClassificationArgs,
  options?: RunOptions,
): Promise<TextClassificationOutput> {
  return runTask("text-classification", args as TextClassificationArgs & JsonObject, options);
}
