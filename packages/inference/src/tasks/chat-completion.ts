import { openAiChat } from "../protocols/openai-chat.js";
import type { ProtocolTable } from "../providers/types.js";
import type {
  BaseArgs,
  ChatCompletionInput,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  JsonObject,
} from "../types.js";
import { endpointChat, isEndpointChat } from "./endpoint-chat.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "openai-chat": openAiChat };

export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

/** conversational */
export function chatCompletion(
  args: ChatCompletionArgs,
  options?: RunOptions,
): Promise<ChatCompletionOutput> {
  // Against an endpointUrl server with no provider named, there is nothing to route: the fast path.
  if (isEndpointChat(args))
    return endpointChat(args as ChatCompletionArgs & { endpointUrl: string }, options);
  return runTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}

/** Chat completion as server-sent events: one chunk per delta, ending at `[DONE]`. */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options?: RunOptions,
): AsyncGenerator<ChatCompletionStreamOutput> {
  return runStreamTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}
