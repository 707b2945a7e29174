import type { HttpRequest } from "../http/request.js";
import { endpointRouteUrl } from "../routing/request-builder.js";
import type { BaseArgs, ChatCompletionInput } from "../types.js";
import { describeChatError } from "./prepare.js";
import type { RunOptions } from "./run.js";

/**
 * The fast path of the most common call that needs no routing: a chat against an endpointUrl server (TGI,
 * vLLM, llama.cpp, Ollama, any OpenAI-compatible one). It builds the request `buildRequest` builds for it
 * (endpoint-chat.test.ts holds the two to the same bytes) in one function, and send-chat.ts sends it and
 * checks the answer: no provider table, route context, prepared-call object or response transform. A call
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

/** The request of an endpoint chat call (what `buildRequest` makes for it, with the JSON body serialized). */
export function endpointChatRequest(allArgs: EndpointChatArgs, options: RunOptions): HttpRequest {
  const { accessToken, model, endpointUrl } = allArgs;
  // The model goes in the body (an endpoint server takes it from there; "tgi" when the caller names none,
  // as buildRequest does).
  const body = chatArgs(allArgs);
  body.model = model || "tgi";
  const headers: Record<string, string> = {};
  if (accessToken) headers.Authorization = bearer(accessToken);
  headers["Content-Type"] = "application/json";
  if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
  return {
    url: chatUrlOf(endpointUrl),
    method: "POST",
    headers,
    body: JSON.stringify(body),
    provider: "hf-inference",
    describeError: describeChatError,
    subject: model ?? endpointUrl,
  };
}
