import type { BaseArgs, JsonObject, TableQuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TableQuestionAnsweringArgs = BaseArgs & {
  inputs: { query: string; table: Record<string, string[]> };
  parameters?: JsonObject;
};

/** table-question-answering */
export function tableQuestionAnswering(
  args: TableQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<TableQuestionAnsweringOutput> {
  return runTask("table-question-answering", args as TableQuestionAnsweringArgs & JsonObject, options);
}
