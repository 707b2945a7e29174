import { bodyReadError, isJsonResponse } from "../http/read-body.js";
import { type HttpRequest, sendRequest } from "../http/request.js";
import type { ChatCompletionOutput } from "../types.js";
import { validateChatCompletion } from "../validate.js";
import { callContextFor, NO_OPTIONS } from "./prepare.js";
import type { RunOptions } from "./run.js";

/**
 * Sends a chat request the fast paths built (endpoint-chat.ts, routed-chat.ts) and checks the answer as
 * the chat protocol does, in one function: what runTask does for a chat, without its prepared-call object
 * or response transform. Retries, the per-attempt timeout, aborts and typed errors are sendRequest's, as
 * on the general path.
 */
export async function sendChat(
  request: HttpRequest,
  options: RunOptions = NO_OPTIONS,
): Promise<ChatCompletionOutput> {
  const call = callContextFor(options);
  try {
    const response = await sendRequest(call, request);
    let payload: unknown;
    try {
      payload = isJsonResponse(response) ? await response.json() : await response.blob();
    } catch (cause) {
      throw bodyReadError(cause, response);
    }
    return validateChatCompletion(payload);
  } catch (error) {
    throw call.signal.aborted ? call.abortError() : error;
  } finally {
    call.dispose();
  }
}
