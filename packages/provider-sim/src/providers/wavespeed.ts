import type { ProviderDefinition, SimContext } from "../context.js";
import { sendJson } from "../http.js";
import type { Job, JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { mediaKindOfTask, nextJobOutcome, simMediaUrl, taskOfProviderModel } from "./job-support.js";

/**
 * WaveSpeed: `POST /api/v3/{model}` -> {code, message, data: {id, status: created, urls: {get}}};
 * `GET /api/v3/predictions/{id}/result` -> data.status created | processing | completed | failed with
 * `outputs` (media URLs). Auth: Bearer key.
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "created",
  IN_PROGRESS: "processing",
  COMPLETED: "completed",
  FAILED: "failed",
};

function envelope(context: SimContext, job: Job, state: JobState) {
  return {
    code: 200,
    message: "success",
    data: {
      id: job.id,
      model: job.model,
      status: STATUS[state],
      outputs: state === "COMPLETED" ? job.result : [],
      urls: { get: `${context.providerUrl}/api/v3/predictions/${job.id}/result` },
      has_nsfw_contents: [],
      created_at: new Date(job.createdAt).toISOString(),
      error: state === "FAILED" && job.outcome.kind === "fail" ? job.outcome.message : "",
      timings: { inference: state === "COMPLETED" ? 10 : 0 },
    },
  };
}

export const wavespeed: ProviderDefinition = {
  name: "wavespeed",
  realBaseUrl: "https://api.wavespeed.ai",
  auth: "bearer",
  errors: "openai",
  routes: [
    {
      method: "GET",
      path: "/api/v3/predictions/:id/result",
      handler: (_request, res, context, params) => {
        const job = context.jobs.get(params.id!);
        if (job?.provider !== "wavespeed") {
          sendJson(res, 404, { code: 404, message: "prediction not found", data: null });
          return;
        }
        sendJson(res, 200, envelope(context, job, context.jobs.poll(job)));
      },
    },
    {
      method: "POST",
      path: "/api/v3/*model",
      handler: (request, res, context, params) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        const task = taskOfProviderModel(context, params.model!);
        const needsImage = task === "image-to-image" || task === "image-to-video";
        const field =
          needsImage && body.image === undefined && body.images === undefined ? "image" : "prompt";
        if ((field === "image" && needsImage) || typeof body.prompt !== "string") {
          sendJson(res, 400, { code: 400, message: `${field} is required`, data: null });
          return;
        }
        const job = context.jobs.create({
          provider: "wavespeed",
          model: params.model!,
          input: body,
          result: [simMediaUrl(context, mediaKindOfTask(task))],
          outcome: nextJobOutcome(context),
          steps: context.jobSteps,
        });
        sendJson(res, 200, envelope(context, job, "IN_QUEUE"));
      },
    },
  ],
};
