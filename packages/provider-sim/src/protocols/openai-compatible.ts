import type { ServerResponse } from "node:http";
import type { Route, SimContext } from "../context.js";
import { sendProviderError } from "../errors.js";
import { sendJson, sendText, sleep } from "../http.js";
import { MEDIA_CONTENT_TYPES, mediaBytes } from "../media.js";
import { writeSse } from "../sse.js";
import {
  type ChatRequestBody,
  CREATED,
  chatCompletion,
  chatStreamEvents,
  completionText,
  streamTokens,
  usageFor,
} from "./chat-reply.js";
import { embeddingFor, nextId, requireJsonObject } from "./json-body.js";
import { recordedChatShapes } from "./recorded-chat-shapes.js";

/**
 * How a provider reports a missing required field (seen in the recording):
 * - openai:   400 {"error":{"message":"you must provide a model parameter",...}}
 * - together: 400 {"id":...,"error":{"message":"Invalid request","param":"model",...}}
 * - fastapi:  422 {"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required","input":{...}}]}
 */
export type MissingFieldStyle = "openai" | "together" | "fastapi";

export interface OpenAiCompatibleOptions {
  /** The provider's own prefix before `/chat/completions`, e.g. `/v1`, `/inference/v1`, `/v3/openai`. */
  prefix: string;
  completions?: boolean;
  /** `openai` bodies ({model, prompt, response_format}) or Hyperbolic's ({model_name, prompt}). */
  images?: "openai" | "hyperbolic";
  embeddings?: boolean;
  /**
   * OpenAI's speech endpoint (`/audio/speech`: {model, input, voice?} -> audio bytes, mp3 by default);
   * "voice-required": the provider refuses a body without `voice` (Together).
   */
  speech?: "voice-optional" | "voice-required";
  missingField?: MissingFieldStyle;
}

export function sendMissingField(
  res: ServerResponse,
  context: SimContext,
  style: MissingFieldStyle,
  field: string,
  body: Record<string, unknown>,
): void {
  if (style === "fastapi") {
    sendJson(res, 422, {
      detail: [{ type: "missing", loc: ["body", field], msg: "Field required", input: body }],
    });
    return;
  }
  if (style === "together") {
    sendJson(res, 400, {
      id: nextId(""),
      error: { message: "Invalid request", type: "invalid_request_error", param: field, code: null },
    });
    return;
  }
  const message =
    field === "model" ? "you must provide a model parameter" : `Missing required parameter: '${field}'.`;
  sendProviderError(res, context.provider.errors, 400, message, { param: field === "model" ? null : field });
}

function missingOf(body: Record<string, unknown>, checks: Record<string, (value: unknown) => boolean>) {
  return Object.entries(checks).find(([field, valid]) => !valid(body[field]))?.[0];
}

const isText = (value: unknown) => typeof value === "string" && value.length > 0;
const isList = (value: unknown) => Array.isArray(value) && value.length > 0;

/** Routes for the OpenAI-compatible wire protocol under a provider's prefix. */
export function openAiCompatibleRoutes(options: OpenAiCompatibleOptions): Route[] {
  const missingStyle = options.missingField ?? "openai";
  const routes: Route[] = [
    {
      method: "POST",
      path: `${options.prefix}/chat/completions`,
      handler: async (request, res, context) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const missing = missingOf(body, { model: isText, messages: isList });
        if (missing) return sendMissingField(res, context, missingStyle, missing, body);
        const chat = body as unknown as ChatRequestBody;
        const id = nextId("chatcmpl-sim-");
        if (body.stream === true) {
          await writeSse(
            res,
            context,
            chatStreamEvents(
              chat,
              context.provider.name,
              id,
              context.streamChunks,
              recordedChatShapes(context.provider.name),
            ),
          );
          return;
        }
        const completion = chatCompletion(
          chat,
          context.provider.name,
          id,
          recordedChatShapes(context.provider.name),
        );
        if (context.tokenIntervalMs) {
          // A paced model answers once it has produced every token (as many as a stream of it would carry).
          const tokens = context.streamChunks ?? completion.usage.completion_tokens;
          await sleep(tokens * context.tokenIntervalMs);
        }
        sendJson(res, 200, completion);
      },
    },
  ];
  if (options.completions) {
    routes.push({
      method: "POST",
      path: `${options.prefix}/completions`,
      handler: async (request, res, context) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const missing = missingOf(body, { model: isText, prompt: (value) => typeof value === "string" });
        if (missing) return sendMissingField(res, context, missingStyle, missing, body);
        const model = body.model as string;
        const text = completionText(body.prompt as string, context.provider.name);
        const id = nextId("cmpl-sim-");
        const head = { id, object: "text_completion", created: CREATED, model };
        if (body.stream === true) {
          const tokens = streamTokens(text);
          const total = context.streamChunks ?? tokens.length;
          const events = function* () {
            for (let index = 0; index < total; index++) {
              const choice = {
                index: 0,
                text: tokens[index % tokens.length],
                logprobs: null,
                finish_reason: null,
              };
              yield JSON.stringify({ ...head, choices: [choice] });
            }
            yield JSON.stringify({
              ...head,
              choices: [{ index: 0, text: "", logprobs: null, finish_reason: "stop" }],
            });
          };
          await writeSse(res, context, events());
          return;
        }
        const usage = usageFor({ model, messages: [{ role: "user", content: body.prompt }] }, text);
        sendJson(res, 200, {
          ...head,
          choices: [{ index: 0, text, logprobs: null, finish_reason: "length" }],
          usage,
        });
      },
    });
  }
  if (options.images) {
    const flavor = options.images;
    routes.push({
      method: "POST",
      path: `${options.prefix}/images/generations`,
      handler: (request, res, context) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const modelField = flavor === "hyperbolic" ? "model_name" : "model";
        const missing = missingOf(body, { [modelField]: isText, prompt: isText });
        if (missing) return sendMissingField(res, context, missingStyle, missing, body);
        const image = mediaBytes("png").toString("base64");
        if (flavor === "hyperbolic") {
          sendJson(res, 200, { images: [{ index: 0, image, random_seed: 42 }], inference_time: 0.01 });
          return;
        }
        const id = nextId("img-sim-");
        const data =
          body.response_format === "url"
            ? [{ index: 0, url: `${context.simUrl}/media/generated/${id}.png` }]
            : [{ index: 0, b64_json: image }];
        sendJson(res, 200, { id, created: CREATED, model: body.model, object: "list", data });
      },
    });
  }
  if (options.embeddings) {
    routes.push({
      method: "POST",
      path: `${options.prefix}/embeddings`,
      handler: (request, res, context) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const missing = missingOf(body, {
          model: isText,
          input: (value) => typeof value === "string" || isList(value),
        });
        if (missing) return sendMissingField(res, context, missingStyle, missing, body);
        const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
        const tokens = inputs.reduce((total, text) => total + text.split(/\s+/).length, 0);
        sendJson(res, 200, {
          object: "list",
          model: body.model,
          data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embeddingFor(text) })),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        });
      },
    });
  }
  if (options.speech) {
    const needsVoice = options.speech === "voice-required";
    routes.push({
      method: "POST",
      path: `${options.prefix}/audio/speech`,
      handler: (request, res, context) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const missing = missingOf(body, {
          model: isText,
          input: isText,
          ...(needsVoice ? { voice: isText } : {}),
        });
        if (missing) return sendMissingField(res, context, missingStyle, missing, body);
        const format =
          body.response_format === "wav" ? "wav" : body.response_format === "flac" ? "flac" : "mp3";
        sendText(res, 200, mediaBytes(format), { "content-type": MEDIA_CONTENT_TYPES[format] });
      },
    });
  }
  return routes;
}
