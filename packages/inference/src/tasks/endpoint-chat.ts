import { bodyReadError, isJsonResponse } from "../http/read-body.js";
import { type HttpRequest, sendRequest } from "../http/request.js";
import { endpointRouteUrl } from "../routing/request-builder.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionOutput } from "../types.js";
import { validateChatCompletion } from "../validate.js";
import { callContextFor, describeChatError, NO_OPTIONS } from "./prepare.js";
import type { RunOptions } from "./run.js";

/**
 * The fast path of the most common call that needs no routing: a chat against an endpointUrl server (TGI,
 * vLLM, llama.cpp, Ollama, any OpenAI-compatible one). It sends the request `buildRequest` builds for it
 * (endpoint-chat.test.ts holds the two to the same bytes) and checks the answer as the chat protocol does,
 * in one function: no provider table, route context, prepared-call object or response transform. A call
 * pays for what it touches once the wait for the network has let other work evict the client's code and
 * data, and those were ~20 µs of a ~450 µs loopback call (bench/results/2026-11-30-inference-2.md).
 * Everything else (a provider, the router, a model URL) takes the general path in runTask.
 */
export function isEndpointChat(args: BaseArgs): boolean {
  return (
    args.endpointUrl !== undefined &&
    args.endpointUrl !== "" &&
    args.provider === undefined &&
    // A model URL is an input error the general path reports (validate-args.ts).
    !args.model?.startsWith("http")
  );
}

type EndpointChatArgs = BaseArgs & ChatCompletionInput & { endpointUrl: string };

/** The request of an endpoint chat call (what `buildRequest` makes for it, with the JSON body serialized). */
export function endpointChatRequest(allArgs: EndpointChatArgs, options: RunOptions): HttpRequest {
  const { accessToken, model, endpointUrl } = allArgs;
  // The body as the chat protocol writes it: the caller's arguments without the routing fields, then the
  // model (an endpoint server takes it from the body; "tgi" when the caller names none, as buildRequest
  // does). One copy of the caller's own keys, by a loop: rest destructuring then Object.assign copied
  // twice, ~0.2 µs more per call warm, where raw fetch's whole body costs ~1.1 µs
  // (bench/results/2026-11-30-inference-2.md).
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(allArgs)) {
    if (key !== "accessToken" && key !== "model" && key !== "provider" && key !== "endpointUrl")
      body[key] = allArgs[key as keyof EndpointChatArgs];
  }
  body.model = model || "tgi";
  const headers: Record<string, string> = {};
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  headers["Content-Type"] = "application/json";
  if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
  return {
    url: endpointRouteUrl(endpointUrl, "conversational"),
    method: "POST",
    headers,
    body: JSON.stringify(body),
    provider: "hf-inference",
    describeError: describeChatError,
    subject: model ?? endpointUrl,
  };
}

/** chatCompletion against an endpointUrl server (see isEndpointChat). */
export async function endpointChat(
  args: EndpointChatArgs,
  options: RunOptions = NO_OPTIONS,
): Promise<ChatCompletionOutput> {
  const call = callContextFor(options);
  try {
    const response = await sendRequest(call, endpointChatRequest(args, options));
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
