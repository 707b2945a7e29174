import type { Route, SimContext } from "../context.js";
import { sendJson } from "../http.js";
import type { Job, JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { nextJobOutcome, simMediaUrl } from "./job-support.js";

/**
 * Together's video jobs (docs.together.ai/reference/create-videos, /reference/get-videos-id):
 * `POST /v2/videos` {model, prompt?, frame_images?: [{input_image, frame}], ...} -> the job, `status: queued`;
 * `GET /v2/videos/{id}` -> the job, status queued | in_progress | completed | failed, with
 * `outputs: {video_url, cost}` once completed and `error: {message, code}` when failed.
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "queued",
  IN_PROGRESS: "in_progress",
  COMPLETED: "completed",
  FAILED: "failed",
};

function videoJob(job: Job, state: JobState) {
  return {
    id: job.id,
    object: "video",
    model: job.model,
    status: STATUS[state],
    created_at: Math.floor(job.createdAt / 1000),
    seconds: "5",
    size: "1280x720",
    ...(state === "COMPLETED"
      ? { completed_at: Math.floor(Date.now() / 1000), outputs: { video_url: job.result, cost: 0.1 } }
      : {}),
    ...(state === "FAILED" && job.outcome.kind === "fail"
      ? { error: { message: job.outcome.message, code: "generation_failed" } }
      : {}),
  };
}

/** Together's 400 for a body it cannot start a job from. */
function invalid(res: Parameters<Route["handler"]>[1], message: string, param: string): void {
  sendJson(res, 400, { error: { message, type: "invalid_request_error", param, code: null } });
}

/** A keyframe list: `[{input_image: URL or data URL, frame: "first" | "last"}]`. */
function validFrames(frames: unknown): boolean {
  return (
    Array.isArray(frames) &&
    frames.length > 0 &&
    frames.every((frame) => {
      const f = frame as Record<string, unknown> | null;
      return (
        typeof f?.input_image === "string" &&
        /^(data:image\/|https?:\/\/)/.test(f.input_image) &&
        (f.frame === "first" || f.frame === "last")
      );
    })
  );
}

function findJob(context: SimContext, id: string): Job | undefined {
  const job = context.jobs.get(id);
  return job?.provider === "together" ? job : undefined;
}

export const togetherVideoRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/videos",
    handler: (request, res, context) => {
      const body = requireJsonObject(request, res, context);
      if (!body) return;
      if (typeof body.model !== "string" || body.model === "")
        return invalid(res, "model is required", "model");
      if (body.frame_images !== undefined && !validFrames(body.frame_images)) {
        return invalid(
          res,
          "frame_images must be a list of {input_image, frame: first | last}",
          "frame_images",
        );
      }
      const hasPrompt = typeof body.prompt === "string" && body.prompt !== "";
      if (!hasPrompt && body.frame_images === undefined) {
        return invalid(res, "prompt or frame_images is required", "prompt");
      }
      const job = context.jobs.create({
        provider: "together",
        model: body.model,
        input: body,
        result: simMediaUrl(context, "mp4"),
        outcome: nextJobOutcome(context),
        steps: context.jobSteps,
      });
      sendJson(res, 200, videoJob(job, "IN_QUEUE"));
    },
  },
  {
    method: "GET",
    path: "/v2/videos/:id",
    handler: (_request, res, context, params) => {
      const job = findJob(context, params.id!);
      if (!job) {
        sendJson(res, 404, { error: { message: `video ${params.id} not found`, type: "not_found" } });
        return;
      }
      sendJson(res, 200, videoJob(job, context.jobs.poll(job)));
    },
  },
];
