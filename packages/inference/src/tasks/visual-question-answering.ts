import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, VisualQuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type VisualQuestionAnsweringArgs = BaseArgs & {
  inputs: { image: Blob | string; question: string };
  parameters?: JsonObject;
};

/** visual-question-answering */
export function visualQuestionAnswering(
  args: VisualQuestionAnsweringArgs,
  options?: RunOptions,
): Promise<VisualQuestionAnsweringOutput> {
  return runTask(
    "visual-question-answering",
    PROTOCOLS,
    args as VisualQuestionAnsweringArgs & JsonObject,
    options,
  );
}
