import type { BaseArgs, JsonObject, QuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type QuestionAnsweringArgs = BaseArgs & {
  inputs: { question: string; context: string };
  parameters?: JsonObject;
};

/** question-answering */
export function questionAnswering(
  args: QuestionAnsweringArgs,
  options?: RunOptions,
): Promise<QuestionAnsweringOutput> {
  return runTask("question-answering", args as QuestionAnsweringArgs & JsonObject, options);
}
