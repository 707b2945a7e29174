import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, SummarizationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type SummarizationArgs = BaseArgs & { inputs: string; parameters?: JsonObject };

/** summarization */
export function summarization(args: SummarizationArgs, options?: RunOptions): Promise<SummarizationOutput> {
  return runTask("summarization", PROTOCOLS, args as SummarizationArgs & JsonObject, options);
}
