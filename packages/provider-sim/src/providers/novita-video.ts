import type { Route } from "../context.js";
import { sendJson } from "../http.js";
import type { JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { nextJobOutcome, simMediaUrl } from "./job-support.js";

/**
 * Novita's asynchronous video API: `POST /v3/async/{model}` -> {task_id};
 * `GET /v3/async/task-result?task_id=...` -> {task: {task_id, status: TASK_STATUS_*, reason}, videos};
 * and the synchronous `POST /v3/hf/{model}` -> {video: {video_url}}.
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "TASK_STATUS_QUEUED",
  IN_PROGRESS: "TASK_STATUS_PROCESSING",
  COMPLETED: "TASK_STATUS_SUCCEED",
  FAILED: "TASK_STATUS_FAILED",
};

export const novitaVideoRoutes: Route[] = [
  {
    method: "GET",
    path: "/v3/async/task-result",
    handler: (request, res, context) => {
      const id = request.query.get("task_id") ?? "";
      const job = context.jobs.get(id);
      if (job?.provider !== "novita") {
        sendJson(res, 404, { code: 404, reason: "TASK_NOT_FOUND", message: `task ${id} not found` });
        return;
      }
      const state = context.jobs.poll(job);
      sendJson(res, 200, {
        task: {
          task_id: id,
          task_type: "TXT_TO_VIDEO",
          status: STATUS[state],
          reason: state === "FAILED" && job.outcome.kind === "fail" ? job.outcome.message : "",
          progress_percent: state === "COMPLETED" ? 100 : state === "IN_PROGRESS" ? 50 : 0,
        },
        videos:
          state === "COMPLETED" ? [{ video_url: job.result, video_url_ttl: "3600", video_type: "mp4" }] : [],
      });
    },
  },
  // huggingface_hub's synchronous route: the video URL comes back in the reply.
  {
    method: "POST",
    path: "/v3/hf/*model",
    handler: (request, res, context) => {
      const body = requireJsonObject(request, res, context);
      if (!body) return;
      if (typeof body.prompt !== "string" || body.prompt === "") {
        sendJson(res, 400, { code: 400, reason: "INVALID_REQUEST_BODY", message: "prompt is required" });
        return;
      }
      sendJson(res, 200, { video: { video_url: simMediaUrl(context, "mp4"), video_type: "mp4" } });
    },
  },
  {
    method: "POST",
    path: "/v3/async/*model",
    handler: (request, res, context, params) => {
      const body = requireJsonObject(request, res, context);
      if (!body) return;
      if (typeof body.prompt !== "string" || body.prompt === "") {
        sendJson(res, 400, { code: 400, reason: "INVALID_REQUEST_BODY", message: "prompt is required" });
        return;
      }
      const job = context.jobs.create({
        provider: "novita",
        model: params.model!,
        input: body,
        result: simMediaUrl(context, "mp4"),
        outcome: nextJobOutcome(context),
        steps: context.jobSteps,
      });
      sendJson(res, 200, { task_id: job.id });
    },
  },
];
