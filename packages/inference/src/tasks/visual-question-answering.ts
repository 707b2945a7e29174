import type { BaseArgs, JsonObject, VisualQuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type VisualQuestionAnsweringArgs = BaseArgs & {
  inputs: { image: Blob | string; question: string };
  parameters?: JsonObject;
};

/** visual-question-answering */
export function visualQuestionAnswering(
  args: VisualQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<VisualQuestionAnsweringOutput> {
  return runTask("visual-question-answering", args as VisualQuestionAnsweringArgs & JsonObject, options);
}
