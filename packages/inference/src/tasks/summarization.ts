import type { BaseArgs, JsonObject, SummarizationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type SummarizationArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** summarization */
export function summarization(args: SummarizationArgs, options?: RunOptions): Promise<SummarizationOutput> {
  return runTask("summarization", args as SummarizationArgs & JsonObject, options);
}
