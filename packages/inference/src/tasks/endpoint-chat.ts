import { httpRequestOf, sendWatched, watchesFirstAttempt } from "../http/request.js";
import { endpointRouteUrl } from "../routing/request-builder.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionOutput } from "../types.js";
import { validateChatCompletion } from "../validate.js";
import { callContextFor, describeChatError } from "./prepare.js";
import type { RunOptions } from "./run.js";
import { sendChatIn } from "./send-chat.js";

/**
 * The fast path of the most common call that needs no routing: a chat against an endpointUrl server (TGI,
 * vLLM, llama.cpp, Ollama, any OpenAI-compatible one). It builds the request `buildRequest` builds for it
 * (endpoint-chat.test.ts holds the two to the same bytes) and sends it in one function, `endpointChat`
 * (send-chat.ts when the call can be aborted): no provider table, route context, prepared-call object or response transform. A call
 * pays for what it touches once the wait for the network has let other work evict the client's code and
 * data, and those were ~20 µs of a ~450 µs loopback call (bench/results/2026-11-30-inference-2.md).
 * A provider or the router takes routed-chat.ts when the model's mappings are cached; anything else
 * (a model URL, a cold cache) the general path in runTask.
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

/**
 * A fast path's body before its model: the caller's arguments without the routing fields, in the caller's
 * order, as the chat protocol writes them. One copy, by a loop: rest destructuring then Object.assign
 * copied twice, ~0.2 µs more per call warm, where raw fetch's whole body costs ~1.1 µs
 * (bench/results/2026-11-30-inference-2.md).
 */
export function chatArgs(allArgs: BaseArgs & ChatCompletionInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // Own keys, as the general path's rest destructuring copies. (for-in saved the keys' array, 77 bytes
  // a call, but the own-key check it then needs cost more time than the array: 0.4-0.5 µs against 0.3.)
  for (const key of Object.keys(allArgs)) {
    if (key !== "accessToken" && key !== "model" && key !== "provider" && key !== "endpointUrl")
      body[key] = allArgs[key as keyof typeof allArgs];
  }
  return body;
}

/**
 * The last endpoint's chat URL, kept: a caller calls one server, and a string built per call (a
 * concatenation) is flattened and parsed again by fetch on every request, where the same string is not.
 */
let lastEndpoint: string | undefined;
let lastChatUrl = "";
function chatUrlOf(endpointUrl: string): string {
  if (endpointUrl !== lastEndpoint) {
    lastChatUrl = endpointRouteUrl(endpointUrl, "conversational");
    lastEndpoint = endpointUrl;
  }
  return lastChatUrl;
}

/**
 * The last token's Authorization value, kept as chatUrlOf keeps the URL: a caller calls with one token,
 * and a concatenation per call is a new string that fetch flattens again to check it.
 */
let lastToken: string | undefined;
let lastBearer = "";
export function bearer(token: string): string {
  if (token !== lastToken) {
    lastBearer = `Bearer ${token}`;
    lastToken = token;
  }
  return lastBearer;
}

/**
 * An endpoint chat call, from the caller's arguments to `fetch` in one function, as a raw fetch is: the
 * request's parts go to fetch as they are, and the `HttpRequest` a retry or a typed error reads is made
 * only if the attempt does not answer OK (`sendWatched`). A call something can abort (a signal, an
 * overall timeout) or with its own per-attempt timeout goes through `sendChat` with the same request.
 * A body JSON cannot write throws here; chatCompletion turns that into the call's rejection.
 * endpoint-chat.test.ts holds what reaches fetch to the general path's request (URL, headers in order, body
 * bytes) and the failure path's errors to its wording.
 */
export function endpointChat(allArgs: EndpointChatArgs, options: RunOptions): Promise<ChatCompletionOutput> {
  const { accessToken, model, endpointUrl } = allArgs;
  // The model goes in the body (an endpoint server takes it from there; "tgi" when the caller names none,
  // as buildRequest does).
  const body = chatArgs(allArgs);
  body.model = model || "tgi";
  const headers: Record<string, string> = {};
  if (accessToken) headers.Authorization = bearer(accessToken);
  headers["Content-Type"] = "application/json";
  if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
  const url = chatUrlOf(endpointUrl);
  const json = JSON.stringify(body);
  const subject = model ?? endpointUrl;
  const init: RequestInit = { method: "POST", headers, body: json };
  const call = callContextFor(options);
  if (call.abortable || !watchesFirstAttempt(call))
    return sendChatIn(call, httpRequestOf(url, init, "hf-inference", describeChatError, subject));
  // Edge runtimes reject an explicit `credentials` field, so it is only present when asked for (the
  // general send adds it from the call context itself).
  if (call.includeCredentials) init.credentials = "include";
  return sendWatched(call, url, init, "hf-inference", describeChatError, subject, validateChatCompletion);
}
