import type { ServerResponse } from "node:http";
import type { ProviderDefinition, SimContext } from "../context.js";
import { sendProviderError } from "../errors.js";
import { bodyObject, type SimRequest, sendJson, sendText } from "../http.js";
import { MEDIA_CONTENT_TYPES, mediaBytes } from "../media.js";
import {
  type ChatRequestBody,
  chatCompletion,
  chatStreamEvents,
  streamTokens,
} from "../protocols/chat-reply.js";
import { nextId } from "../protocols/json-body.js";
import { openAiCompatibleRoutes } from "../protocols/openai-compatible.js";
import { recordedChatShapes } from "../protocols/recorded-chat-shapes.js";
import { writeSse } from "../sse.js";
import { BINARY_INPUT_TASKS, taskReply } from "./hf-task-outputs.js";

/**
 * hf-inference: the hub's own serverless inference. `/models/{model}` runs the model's pipeline,
 * `/pipeline/{task}/{model}` a named one, `/models/{model}/v1/chat/completions` is TGI's chat route.
 */

function unknownModel(res: ServerResponse, model: string): void {
  sendJson(res, 404, { error: `Model ${model} does not exist` });
}

/** TGI rejects bodies that do not fit its types with a text/plain 422 naming the field. */
function missingField(res: ServerResponse, request: SimRequest, field: string): void {
  sendText(
    res,
    422,
    `Failed to deserialize the JSON body into the target type: missing field \`${field}\` at line 1 column ${request.bodyText.length}`,
  );
}

async function chat(
  request: SimRequest,
  res: ServerResponse,
  context: SimContext,
  model: string,
): Promise<void> {
  const entry = context.registry.get(model);
  if (!entry || entry.hfInference === false) return unknownModel(res, model);
  const body = bodyObject(request);
  if (!Array.isArray(body.messages)) return missingField(res, request, "messages");
  if (!entry.tags?.includes("conversational")) {
    sendJson(res, 422, { error: "Template error: template not found", error_type: "template_error" });
    return;
  }
  const chatBody = { ...body, model: entry.id } as unknown as ChatRequestBody;
  const id = nextId("");
  if (body.stream === true) {
    await writeSse(
      res,
      context,
      chatStreamEvents(
        chatBody,
        "hf-inference",
        id,
        context.streamChunks,
        recordedChatShapes("hf-inference"),
      ),
    );
    return;
  }
  sendJson(res, 200, chatCompletion(chatBody, "hf-inference", id, recordedChatShapes("hf-inference")));
}

/** TGI's token stream for text-generation with `stream: true`. */
function* textGenerationEvents(prompt: string, chunks: number | undefined): Generator<string> {
  const tokens = streamTokens(`${prompt} and the simulator carried on.`.slice(prompt.length));
  const total = chunks ?? tokens.length;
  let generated = "";
  for (let index = 0; index < total; index++) {
    const textPiece = tokens[index % tokens.length]!;
    generated += textPiece;
    const last = index === total - 1;
    yield JSON.stringify({
      index: index + 1,
      token: { id: 1000 + index, text: textPiece, logprob: -0.1, special: false },
      generated_text: last ? generated : null,
      details: null,
    });
  }
}

async function runTask(
  request: SimRequest,
  res: ServerResponse,
  context: SimContext,
  task: string,
  model: string,
): Promise<void> {
  let inputs: unknown;
  let parameters: Record<string, unknown> = {};
  if (BINARY_INPUT_TASKS.has(task) && !request.isJson) {
    if (request.rawBody.length === 0) {
      sendJson(res, 400, { error: `Task ${task} needs the input file as the request body.` });
      return;
    }
    inputs = request.rawBody;
  } else {
    if (!request.isJson || request.jsonError !== undefined) {
      sendJson(res, 400, { error: "Expected a JSON body with `inputs`." });
      return;
    }
    const body = bodyObject(request);
    if (body.inputs === undefined) {
      if (Array.isArray(body.messages) && context.registry.get(model)?.tags?.includes("conversational")) {
        return chat(request, res, context, model);
      }
      return missingField(res, request, "inputs");
    }
    inputs = body.inputs;
    parameters = (body.parameters as Record<string, unknown> | undefined) ?? {};
    if (task === "text-generation" && body.stream === true) {
      await writeSse(res, context, textGenerationEvents(String(inputs), context.streamChunks), {
        dataPrefix: "data:",
        done: false,
      });
      return;
    }
  }
  const reply = taskReply(task, inputs, parameters);
  if (reply.kind === "error") return sendProviderError(res, "hf", reply.status, reply.message);
  if (reply.kind === "media") {
    sendText(res, 200, mediaBytes(reply.media), { "content-type": MEDIA_CONTENT_TYPES[reply.media] });
    return;
  }
  sendJson(res, 200, reply.body);
}

export const hfInference: ProviderDefinition = {
  name: "hf-inference",
  realBaseUrl: "https://router.huggingface.co/hf-inference",
  auth: "hub-only",
  errors: "hf",
  routes: [
    {
      method: "POST",
      path: "/models/*model/v1/chat/completions",
      handler: (request, res, context, params) => chat(request, res, context, params.model!),
    },
    // Today's clients (huggingface_hub 2, @huggingface/inference 4) name the pipeline after the model, and
    // @huggingface/inference sends text generation to the OpenAI-style completions route.
    {
      method: "POST",
      path: "/models/*model/pipeline/:task",
      handler: (request, res, context, params) => {
        const entry = context.registry.get(params.model!);
        if (!entry || entry.hfInference === false) return unknownModel(res, params.model!);
        return runTask(request, res, context, params.task!, entry.id);
      },
    },
    ...openAiCompatibleRoutes({ prefix: "/models/*model/v1", completions: true }).filter(
      (route) => !route.path.endsWith("/chat/completions"),
    ),
    {
      method: "POST",
      path: "/pipeline/:task/*model",
      handler: (request, res, context, params) => {
        const entry = context.registry.get(params.model!);
        if (!entry || entry.hfInference === false) return unknownModel(res, params.model!);
        return runTask(request, res, context, params.task!, entry.id);
      },
    },
    {
      method: "POST",
      path: "/models/*model",
      handler: (request, res, context, params) => {
        const entry = context.registry.get(params.model!);
        if (!entry || entry.hfInference === false) return unknownModel(res, params.model!);
        return runTask(request, res, context, entry.pipeline_tag, entry.id);
      },
    },
  ],
};
