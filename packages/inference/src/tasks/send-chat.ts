import type { CallContext } from "../http/call-context.js";
import { type HttpRequest, readChecked, sendRequest, sendRequestForJson } from "../http/request.js";
import type { ChatCompletionOutput } from "../types.js";
import { validateChatCompletion } from "../validate.js";
import { callContextFor, NO_OPTIONS } from "./prepare.js";
import type { RunOptions } from "./run.js";

/**
 * Sends a chat request the fast paths built (endpoint-chat.ts, routed-chat.ts) and checks the answer as
 * the chat protocol does: what runTask does for a chat, without its prepared-call object or response
 * transform. Retries, the per-attempt timeout, aborts and typed errors are sendRequest's, as on the
 * general path.
 *
 * A call nothing can abort (no signal, no overall timeout: the common case) has nothing to dispose and no
 * abort to report: its answer is read and checked by the watched attempt itself (`sendRequestForJson`),
 * without an async frame, whose suspended state was the largest of a chat call's allocations (628 of 2,653
 * bytes, bench/results/2026-11-30-inference-3.md).
 */
export function sendChat(
  request: HttpRequest,
  options: RunOptions = NO_OPTIONS,
): Promise<ChatCompletionOutput> {
  return sendChatIn(callContextFor(options), request);
}

/** sendChat in a call context the caller made (endpoint-chat.ts, which made it to choose its path). */
export function sendChatIn(call: CallContext, request: HttpRequest): Promise<ChatCompletionOutput> {
  return call.abortable
    ? sendAbortableChat(call, request)
    : sendRequestForJson(call, request, validateChatCompletion);
}

/** A call with a signal or an overall timeout: an abort is reported as one, and the context released. */
async function sendAbortableChat(call: CallContext, request: HttpRequest): Promise<ChatCompletionOutput> {
  try {
    return await readChecked(await sendRequest(call, request), validateChatCompletion);
  } catch (error) {
    throw call.signal.aborted ? call.abortError() : error;
  } finally {
    call.dispose();
  }
}
