import type {
  BaseArgs,
  JsonObject,
  TextGenerationInput,
  TextGenerationOutput,
  TextGenerationStreamOutput,
} from "../types.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";

export type TextGenerationArgs = BaseArgs & TextGenerationInput;

/** text-generation */
export function textGeneration(
  args: TextGenerationArgs,
  options?: RunOptions,
): Promise<TextGenerationOutput> {
  return runTask("text-generation", args as TextGenerationArgs & JsonObject, options);
}

/** Text generation as server-sent events (token by token). */
export function textGenerationStream(
  args: TextGenerationArgs,
  options?: RunOptions,
): AsyncGenerator<TextGenerationStreamOutput> {
  return runStreamTask("text-generation", args as TextGenerationArgs & JsonObject, options);
}
