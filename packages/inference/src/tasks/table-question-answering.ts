import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TableQuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TableQuestionAnsweringArgs = BaseArgs & {
  inputs: { query: string; table: Record<string, string[]> };
  parameters?: JsonObject;
};

/** table-question-answering */
export function tableQuestionAnswering(
  args: TableQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<TableQuestionAnsweringOutput> {
  return runTask(
    "table-question-answering",
    PROTOCOLS,
    args as TableQuestionAnsweringArgs & JsonObject,
    options,
  );
}
