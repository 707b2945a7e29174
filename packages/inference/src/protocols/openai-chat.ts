import type { ProtocolFactory, TaskSpec } from "../providers/types.js";
import type {
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  TextGenerationOutput,
  TextGenerationStreamOutput,
} from "../types.js";
import { expectShape, isObject, isString, validateChatCompletion } from "../validate.js";
import { fillPath, option } from "./route-options.js";

/** Where an OpenAI-compatible server takes chat, when a route names no path of its own. */
export const OPENAI_CHAT_PATH = "/v1/chat/completions";

/**
 * OpenAI-compatible chat: POST {path} with the caller's chat arguments, `stream` when streaming, and the
 * provider's model id last so caller arguments cannot override it. Route options: `path`, and
 * `modelInBody: "endpoint-only"` for servers that take the model from the path (hf-inference).
 */
export const openAiChat: ProtocolFactory<"openai-chat"> = (route): TaskSpec => {
  const path = option(route, "path", OPENAI_CHAT_PATH);
  const modelOnlyForEndpoints = route.modelInBody === "endpoint-only";
  return {
    path: (ctx) => fillPath(path, ctx),
    streams: true,
    body: ({ args, stream, providerModelId, endpoint }) => {
      // One copy of the caller's arguments, then assignments. Object.assign rather than a spread: V8 copies
      // an object made by rest destructuring (as `args` is) several times slower with a spread.
      const body: Record<string, unknown> = Object.assign({}, args);
      if (stream) body.stream = true;
      if (!modelOnlyForEndpoints || endpoint) body.model = providerModelId;
      return body;
    },
    parse: (response) => validateChatCompletion(response),
    parseEvent: validateChatChunk,
  };
};

export function validateChatChunk(event: unknown): ChatCompletionStreamOutput {
  const ok = isObject(event) && Array.isArray(event.choices);
  return expectShape(event, ok, "chat completion stream", "{id, created, model, choices: [{delta}]}");
}

/** Maps hub text-generation parameters onto OpenAI completion names. */
function completionParameters(parameters: unknown): Record<string, unknown> {
  if (!isObject(parameters)) return {};
  const { max_new_tokens, ...rest } = parameters;
  return max_new_tokens === undefined ? rest : { ...rest, max_tokens: max_new_tokens };
}

/** OpenAI-compatible text completion: `{prompt, model, ...parameters}` -> `choices[0].text`. */
export const openAiCompletions: ProtocolFactory<"openai-completions"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/completions");
  return {
    path: (ctx) => fillPath(path, ctx),
    streams: true,
    body: ({ args, stream, providerModelId }) => {
      const { inputs, parameters, ...rest } = args;
      return {
        ...rest,
        ...completionParameters(parameters),
        prompt: inputs,
        ...(stream ? { stream: true } : {}),
        model: providerModelId,
      };
    },
    parseEvent: (event): TextGenerationStreamOutput => {
      const ok = isObject(event) && Array.isArray(event.choices) && isObject(event.choices[0]);
      expectShape(event, ok, "text generation stream", "{choices: [{text}]}");
      const text = (event as { choices: Array<{ text?: string }> }).choices[0]!.text ?? "";
      return { token: { id: 0, text, special: false }, generated_text: null };
    },
    parse: (response): TextGenerationOutput => {
      const ok =
        isObject(response) &&
        Array.isArray(response.choices) &&
        isObject(response.choices[0]) &&
        isString(response.choices[0].text);
      expectShape(response, ok, "text generation", "{choices: [{text}]}");
      const choice = (response as { choices: Array<{ text: string }> }).choices[0]!;
      return { generated_text: choice.text };
    },
  };
};

/** Text generation through a chat endpoint (providers with no completions route): one user message. */
export const textGenerationViaChat: ProtocolFactory<"chat-text-generation"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/chat/completions");
  return {
    path: (ctx) => fillPath(path, ctx),
    streams: false,
    body: ({ args, providerModelId }) => {
      const { inputs, parameters, ...rest } = args;
      return {
        messages: [{ content: inputs, role: "user" }],
        ...rest,
        ...completionParameters(parameters),
        model: providerModelId,
      };
    },
    parse: (response): TextGenerationOutput => {
      const chat = validateChatCompletion(response) as ChatCompletionOutput;
      const content = chat.choices[0]?.message?.content;
      expectShape(response, isString(content), "text generation", "{choices: [{message: {content}}]}");
      return { generated_text: content as string };
    },
  };
};
