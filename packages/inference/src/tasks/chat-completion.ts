import type {
  BaseArgs,
  ChatCompletionInput,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  JsonObject,
} from "../types.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";

export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

/** conversational */
export function chatCompletion(
  args: ChatCompletionArgs,
  options?: RunOptions,
): Promise<ChatCompletionOutput> {
  return runTask("conversational", args as ChatCompletionArgs & JsonObject, options);
}

/** Chat completion as server-sent events: one chunk per delta, ending at `[DONE]`. */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options?: RunOptions,
): AsyncGenerator<ChatCompletionStreamOutput> {
  return runStreamTask("conversational", args as ChatCompletionArgs & JsonObject, options);
}
