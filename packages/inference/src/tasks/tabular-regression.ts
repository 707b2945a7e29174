import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TabularOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TabularRegressionArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** tabular-regression */
export function tabularRegression(args: TabularRegressionArgs, options?: RunOptions): Promise<TabularOutput> {
  return runTask("tabular-regression", PROTOCOLS, args as TabularRegressionArgs & JsonObject, options);
}
