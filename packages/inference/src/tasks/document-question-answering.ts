import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, DocumentQuestionAnsweringOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type DocumentQuestionAnsweringArgs = BaseArgs & {
  inputs: { image: Blob | string; question: string };
  parameters?: JsonObject;
};

/** document-question-answering */
export function documentQuestionAnswering(
  args: DocumentQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<DocumentQuestionAnsweringOutput> {
  return runTask(
    "document-question-answering",
    PROTOCOLS,
    args as DocumentQuestionAnsweringArgs & JsonObject,
    options,
  );
}
