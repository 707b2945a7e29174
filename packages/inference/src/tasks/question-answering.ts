import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, QuestionAnsweringOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type QuestionAnsweringArgs = BaseArgs & {
  inputs: { question: string; context: string };
  parameters?: JsonObject;
};

/** question-answering */
export function questionAnswering(
  args: QuestionAnsweringArgs,
  options?: RunOptions,
): Promise<QuestionAnsweringOutput> {
  return runTask("question-answering", PROTOCOLS, args as QuestionAnsweringArgs & JsonObject, options);
}
