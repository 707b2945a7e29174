import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { AuthPolicy } from "./auth.js";
import { headerValue, type SimRequest, sendJson } from "./http.js";
import type { ModelRegistry, SimModel } from "./models.js";

/**
 * The two hub calls the inference client makes, shaped like the public hub:
 * - GET /api/models/{id}?expand[]=inferenceProviderMapping -> {_id, id, inferenceProviderMapping: {provider:
 *   {status, providerId, task}}}; the `x-sim-mapping-shape: array` request header asks for the newer array
 *   shape [{provider, providerId, status, task}] so clients can test both.
 * - GET /api/tasks -> {task: {id, label, models: [{id, description}], widgetModels: [id]}}
 */

function objectId(id: string): string {
  return createHash("sha1").update(id).digest("hex").slice(0, 24);
}

function expandedFields(
  model: SimModel,
  registry: ModelRegistry,
  arrayShape: boolean,
): Record<string, unknown> {
  const mappings = registry.mappingsOf(model);
  return {
    pipeline_tag: model.pipeline_tag,
    tags: model.tags ?? [],
    library_name: model.pipeline_tag === "text-generation" ? "transformers" : undefined,
    inferenceProviderMapping: arrayShape
      ? Object.entries(mappings).map(([provider, mapping]) => ({ provider, ...mapping }))
      : mappings,
  };
}

export function serveModelInfo(
  request: SimRequest,
  res: ServerResponse,
  registry: ModelRegistry,
  id: string,
  policy: AuthPolicy,
): void {
  const authorization = headerValue(request.headers, "authorization");
  if (authorization !== undefined) {
    const token = /^Bearer (hf_[A-Za-z0-9_-]+)$/.exec(authorization)?.[1];
    if (!token || (policy.hubTokens && !policy.hubTokens.includes(token))) {
      sendJson(res, 401, { error: "Invalid credentials in Authorization header" });
      return;
    }
  }
  const model = registry.get(id);
  if (!model) {
    sendJson(res, 404, { error: "Repository not found" });
    return;
  }
  const arrayShape = headerValue(request.headers, "x-sim-mapping-shape") === "array";
  const all = expandedFields(model, registry, arrayShape);
  const expand = [...request.query.getAll("expand[]"), ...request.query.getAll("expand")];
  const base = { _id: objectId(model.id), id: model.id };
  if (expand.length === 0) {
    sendJson(res, 200, { ...base, modelId: model.id, pipeline_tag: all.pipeline_tag, tags: all.tags });
    return;
  }
  sendJson(res, 200, {
    ...base,
    ...Object.fromEntries(expand.filter((field) => field in all).map((f) => [f, all[f]])),
  });
}

function label(task: string): string {
  return task
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Tasks listed even when no model serves them, so clients can test "No default model defined for task". */
const LISTED_TASKS = [
  "text-generation",
  "text-to-image",
  "image-to-image",
  "text-to-video",
  "image-to-video",
  "text-to-speech",
  "text-to-audio",
  "automatic-speech-recognition",
  "audio-classification",
  "audio-to-audio",
  "image-classification",
  "image-segmentation",
  "image-to-text",
  "object-detection",
  "zero-shot-image-classification",
  "feature-extraction",
  "sentence-similarity",
  "fill-mask",
  "question-answering",
  "summarization",
  "table-question-answering",
  "text-classification",
  "token-classification",
  "translation",
  "zero-shot-classification",
  "document-question-answering",
  "visual-question-answering",
  "tabular-classification",
  "tabular-regression",
  "depth-estimation",
];

export function serveTasks(res: ServerResponse, registry: ModelRegistry): void {
  const tasks: Record<string, unknown> = {};
  const ids = new Set([...LISTED_TASKS, ...registry.list().map((model) => model.pipeline_tag)]);
  for (const task of ids) {
    const models = registry
      .list()
      .filter((model) => model.pipeline_tag === task && model.hfInference !== false);
    tasks[task] = {
      id: task,
      label: label(task),
      models: models.map((model) => ({ id: model.id, description: `${model.id} (served by the simulator)` })),
      widgetModels: models.slice(0, 1).map((model) => model.id),
    };
  }
  sendJson(res, 200, tasks);
}
