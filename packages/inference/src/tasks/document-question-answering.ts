import type { BaseArgs, DocumentQuestionAnsweringOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type DocumentQuestionAnsweringArgs = BaseArgs & {
  inputs: { image: Blob | string; question: string };
  parameters?: JsonObject;
};

/** document-question-answering */
export function documentQuestionAnswering(
  args: DocumentQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<DocumentQuestionAnsweringOutput> {
  return runTask("document-question-answering", args as DocumentQuestionAnsweringArgs & JsonObject, options);
}
