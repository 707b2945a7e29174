import type { BaseArgs, JsonObject, TabularOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TabularRegressionArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** tabular-regression */
export function tabularRegression(args: TabularRegressionArgs, options?: RunOptions): Promise<TabularOutput> {
  return runTask("tabular-regression", args as TabularRegressionArgs & JsonObject, options);
}
