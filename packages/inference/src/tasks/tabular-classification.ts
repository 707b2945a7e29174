import type { BaseArgs, JsonObject, TabularOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TabularClassificationArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** tabular-classification */
export function tabularClassification(
  args: TabularClassificationArgs,
  options?: RunOptions,
): Promise<TabularOutput> {
  return runTask("tabular-classification", args as TabularClassificationArgs & JsonObject, options);
}
