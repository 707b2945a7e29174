import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TabularOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TabularClassificationArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** tabular-classification */
export function tabularClassification(
  args: TabularClassificationArgs,
  options?: RunOptions,
): Promise<TabularOutput> {
  return runTask(
    "tabular-classification",
    PROTOCOLS,
    args as TabularClassificationArgs & JsonObject,
    options,
  );
}
