import { openAiChat } from "../protocols/openai-chat.js";
import type { ProtocolTable } from "../providers/types.js";
import type {
  BaseArgs,
  ChatCompletionInput,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  JsonObject,
} from "../types.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "openai-chat": openAiChat };

export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

/** conversational */
export function chatCompletion(
  args: ChatCompletionArgs,
  options?: RunOptions,
): Promise<ChatCompletionOutput> {
  return runTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}

/** Chat completion as server-sent events: one chunk per delta, ending at `[DONE]`. */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options?: RunOptions,
): AsyncGenerator<ChatCompletionStreamOutput> {
  return runStreamTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}
