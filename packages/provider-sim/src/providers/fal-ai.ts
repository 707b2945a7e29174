import type { ServerResponse } from "node:http";
import type { ProviderDefinition, SimContext } from "../context.js";
import { sendProviderError } from "../errors.js";
import { type SimRequest, sendJson } from "../http.js";
import type { Job } from "../jobs.js";
import { mediaDataUrl, mediaKindForContentType } from "../media.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { mediaKindOfTask, nextJobOutcome, simMediaUrl, taskOfProviderModel } from "./job-support.js";

/**
 * fal.ai. Synchronous runs: `POST /{model}` (fal.run). The queue (queue.fal.run; through the router
 * `?_subdomain=queue`): `POST /{model}?_subdomain=queue` -> {request_id, status_url, response_url, cancel_url};
 * `GET /{app}/requests/{id}/status` -> IN_QUEUE | IN_PROGRESS | COMPLETED; `GET /{app}/requests/{id}` -> the
 * result; `PUT /{app}/requests/{id}/cancel`. `{app}` is the model id's first two segments, as on fal.
 */

const AUDIO_DATA_URL_TYPES = ["audio/mpeg", "audio/mp4", "audio/wav", "audio/x-wav"];

type Body = Record<string, unknown>;

/** fal validates inputs with pydantic: a 422 listing each missing field. */
function missingFields(res: ServerResponse, fields: string[]): void {
  sendJson(res, 422, {
    detail: fields.map((field) => ({
      loc: ["body", field],
      msg: "field required",
      type: "value_error.missing",
    })),
  });
}

/** The fields the model needs (non-empty strings). */
function requiredFields(task: string, model: string): string[] {
  if (task === "automatic-speech-recognition" || task === "audio-to-audio") return ["audio_url"];
  if (task === "image-to-image" || task === "image-to-video" || task === "image-segmentation") {
    return ["image_url"];
  }
  // fal's speech apps differ: Kokoro's read `prompt` (fal.ai/models/fal-ai/kokoro/american-english/api;
  // without it they speak an empty prompt, refused here so that a client sending `text` is seen), Dia,
  // Orpheus, Chatterbox, MiniMax and ElevenLabs read `text` (what huggingface_hub and
  // @huggingface/inference send).
  if (task === "text-to-speech") return [model.startsWith("fal-ai/kokoro") ? "prompt" : "text"];
  return ["prompt"];
}

/** The result a fal model returns for its task, media URLs pointing at the sim (data URLs in sync mode). */
function resultFor(context: SimContext, task: string, body: Body): unknown {
  const syncMode = body.sync_mode === true;
  switch (task) {
    case "automatic-speech-recognition": {
      const text = "This is a simulated transcript.";
      return { text, chunks: [{ timestamp: [0, 1.5], text }] };
    }
    case "text-to-speech":
    case "text-to-audio":
      return {
        audio: { url: simMediaUrl(context, "wav"), content_type: "audio/wav", file_name: "audio.wav" },
      };
    // Audio apps (fal.ai/models/fal-ai/elevenlabs/audio-isolation/api): the processed audio file.
    case "audio-to-audio":
      return {
        audio: { url: simMediaUrl(context, "wav"), content_type: "audio/wav", file_name: "audio.wav" },
      };
    // Mask apps (fal.ai/models/fal-ai/birefnet/api): the mask as an image, inline in sync mode.
    case "image-segmentation":
      return {
        image: {
          url: syncMode ? mediaDataUrl("png") : simMediaUrl(context, "png"),
          content_type: "image/png",
          file_name: "mask.png",
          width: 8,
          height: 8,
        },
      };
    case "text-to-video":
    case "image-to-video":
    case "image-text-to-video":
      return {
        video: { url: simMediaUrl(context, "mp4"), content_type: "video/mp4", file_name: "video.mp4" },
        seed: 42,
      };
    default: {
      const kind = mediaKindOfTask(task);
      return {
        images: [
          {
            url: syncMode ? mediaDataUrl("jpeg") : simMediaUrl(context, kind),
            width: 8,
            height: 8,
            content_type: syncMode ? "image/jpeg" : "image/png",
          },
        ],
        timings: { inference: 0.01 },
        seed: 42,
        has_nsfw_concepts: [false],
        prompt: body.prompt,
      };
    }
  }
}

/** fal's LoRA list: weights to download (an http(s) URL) and how strongly to apply them. */
function validLoras(loras: unknown): boolean {
  return (
    Array.isArray(loras) &&
    loras.every(
      (lora) =>
        typeof lora === "object" &&
        lora !== null &&
        typeof (lora as Body).path === "string" &&
        /^https?:\/\//.test((lora as Body).path as string) &&
        typeof ((lora as Body).scale ?? 1) === "number",
    )
  );
}

/** Checks the body for the model's task; replies and returns undefined when it does not fit. */
function acceptInput(
  request: SimRequest,
  res: ServerResponse,
  context: SimContext,
  model: string,
): { task: string; body: Body } | undefined {
  const body = requireJsonObject(request, res, context);
  if (!body) return undefined;
  const task = taskOfProviderModel(context, model);
  const missing = requiredFields(task, model).filter(
    (field) => typeof body[field] !== "string" || body[field] === "",
  );
  if (missing.length > 0) {
    missingFields(res, missing);
    return undefined;
  }
  if (body.loras !== undefined && !validLoras(body.loras)) {
    sendProviderError(res, "detail", 422, "loras must be a list of {path: URL, scale: number}");
    return undefined;
  }
  const audio = body.audio_url;
  if (typeof audio === "string" && audio.startsWith("data:")) {
    const type = /^data:([^;,]+)/.exec(audio)?.[1] ?? "";
    if (!AUDIO_DATA_URL_TYPES.includes(type) || !mediaKindForContentType(type)) {
      sendProviderError(res, "detail", 400, "Unsupported data URL");
      return undefined;
    }
  }
  return { task, body };
}

function appOf(model: string): string {
  return model.split("/").slice(0, 2).join("/");
}

function queueUrls(context: SimContext, job: Job) {
  const base = `${context.providerUrl}/${appOf(job.model)}/requests/${job.id}`;
  return {
    status_url: `${base}/status?_subdomain=queue`,
    response_url: `${base}?_subdomain=queue`,
    cancel_url: `${base}/cancel?_subdomain=queue`,
  };
}

function submit(request: SimRequest, res: ServerResponse, context: SimContext, model: string): void {
  const accepted = acceptInput(request, res, context, model);
  if (!accepted) return;
  const job = context.jobs.create({
    provider: "fal-ai",
    model,
    input: accepted.body,
    result: resultFor(context, accepted.task, accepted.body),
    outcome: nextJobOutcome(context),
    steps: context.jobSteps,
  });
  sendJson(res, 200, {
    status: "IN_QUEUE",
    request_id: job.id,
    queue_position: 0,
    ...queueUrls(context, job),
  });
}

function findJob(res: ServerResponse, context: SimContext, id: string): Job | undefined {
  const job = context.jobs.get(id);
  if (job?.provider !== "fal-ai") sendProviderError(res, "detail", 404, `Request ${id} not found`);
  return job;
}

function status(res: ServerResponse, context: SimContext, id: string) {
  const job = findJob(res, context, id);
  if (!job) return;
  const state = context.jobs.poll(job);
  const { response_url } = queueUrls(context, job);
  if (state === "IN_QUEUE")
    return sendJson(res, 200, { status: "IN_QUEUE", queue_position: 0, response_url });
  if (state === "IN_PROGRESS") {
    return sendJson(res, 200, {
      status: "IN_PROGRESS",
      logs: [{ message: "step", level: "INFO" }],
      response_url,
    });
  }
  // fal reports failed requests as COMPLETED with an error; the result endpoint then answers with it.
  const failure =
    job.outcome.kind === "fail" ? { error: job.outcome.message, error_type: "runner_server_error" } : {};
  sendJson(res, 200, {
    status: "COMPLETED",
    logs: [],
    response_url,
    metrics: { inference_time: 0.01 },
    ...failure,
  });
}

function result(res: ServerResponse, context: SimContext, id: string): void {
  const job = findJob(res, context, id);
  if (!job) return;
  const state = context.jobs.state(job);
  if (state === "IN_QUEUE" || state === "IN_PROGRESS") {
    sendProviderError(res, "detail", 400, "Request is still in progress");
    return;
  }
  if (job.outcome.kind === "fail" || job.canceled) {
    const message = job.outcome.kind === "fail" ? job.outcome.message : "Request was cancelled";
    sendJson(
      res,
      500,
      { detail: message, error_type: "runner_server_error" },
      {
        "x-fal-error-type": "runner_server_error",
      },
    );
    return;
  }
  sendJson(res, 200, job.result);
}

const isQueue = (request: SimRequest) => request.query.get("_subdomain") === "queue";

export const falAi: ProviderDefinition = {
  name: "fal-ai",
  realBaseUrl: "https://fal.run",
  auth: "fal-key",
  errors: "detail",
  routes: [
    {
      method: "GET",
      path: "/*app/requests/:id/status",
      handler: (_request, res, context, params) => status(res, context, params.id!),
    },
    {
      method: "PUT",
      path: "/*app/requests/:id/cancel",
      handler: (_request, res, context, params) => {
        const job = findJob(res, context, params.id!);
        if (!job) return;
        const state = context.jobs.state(job);
        if (state === "COMPLETED" || state === "FAILED") {
          sendJson(res, 400, { status: "ALREADY_COMPLETED" });
          return;
        }
        job.canceled = true;
        job.outcome = { kind: "fail", message: "Request was cancelled" };
        sendJson(res, 202, { status: "CANCELLATION_REQUESTED" });
      },
    },
    {
      method: "GET",
      path: "/*app/requests/:id",
      handler: (_request, res, context, params) => result(res, context, params.id!),
    },
    {
      method: "POST",
      path: "/*model",
      handler: async (request, res, context, params) => {
        if (isQueue(request)) return submit(request, res, context, params.model!);
        const accepted = acceptInput(request, res, context, params.model!);
        if (!accepted) return;
        const outcome = nextJobOutcome(context);
        if (outcome.kind === "never") {
          // A synchronous run that never finishes: hold the request until the client gives up.
          await new Promise((resolve) => res.once("close", resolve));
          return;
        }
        if (outcome.kind === "fail") {
          sendJson(res, 500, { detail: outcome.message, error_type: "runner_server_error" });
          return;
        }
        sendJson(res, 200, resultFor(context, accepted.task, accepted.body));
      },
    },
  ],
};
