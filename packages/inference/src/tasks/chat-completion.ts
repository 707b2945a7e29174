import type { HttpRequest } from "../http/request.js";
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
import { NO_OPTIONS } from "./prepare.js";
import { routedChatRequest } from "./routed-chat.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";
import { sendChat } from "./send-chat.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "openai-chat": openAiChat };

export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

/** conversational */
export function chatCompletion(
  args: ChatCompletionArgs,
  options: RunOptions = NO_OPTIONS,
): Promise<ChatCompletionOutput> {
  // The fast paths: an endpointUrl server with no provider named (nothing to route), or a model whose hub
  // mappings are cached. Their request is built here so that an error building it (a body JSON cannot
  // write) rejects, as it does on the general path.
  let fast: HttpRequest | undefined;
  try {
    if (isEndpointChat(args))
      return endpointChat(args as ChatCompletionArgs & { endpointUrl: string }, options);
    fast = routedChatRequest(args, options);
  } catch (error) {
    return Promise.reject(error);
  }
  if (fast) return sendChat(fast, options);
  return runTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}

/** Chat completion as server-sent events: one chunk per delta, ending at `[DONE]`. */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options?: RunOptions,
): AsyncGenerator<ChatCompletionStreamOutput> {
  return runStreamTask("conversational", PROTOCOLS, args as ChatCompletionArgs & JsonObject, options);
}
