import type { Route } from "../context.js";
import { sendJson } from "../http.js";
import type { JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { nextJobOutcome, simMediaUrl } from "./job-support.js";

/**
 * Z.ai's asynchronous image generation: `POST /api/paas/v4/async/images/generations` -> {id, request_id, model,
 * task_status: PROCESSING}; `GET /api/paas/v4/async-result/{id}` -> task_status PROCESSING | SUCCESS | FAIL with
 * `image_result: [{url}]`.
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "PROCESSING",
  IN_PROGRESS: "PROCESSING",
  COMPLETED: "SUCCESS",
  FAILED: "FAIL",
};

export const zaiImageRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/paas/v4/async/images/generations",
    handler: (request, res, context) => {
      const body = requireJsonObject(request, res, context);
      if (!body) return;
      const missing = ["model", "prompt"].find(
        (field) => typeof body[field] !== "string" || body[field] === "",
      );
      if (missing) {
        sendJson(res, 400, { error: { code: "1214", message: `${missing} is required` } });
        return;
      }
      const job = context.jobs.create({
        provider: "zai-org",
        model: body.model as string,
        input: body,
        result: [{ url: simMediaUrl(context, "png") }],
        outcome: nextJobOutcome(context),
        steps: context.jobSteps,
      });
      sendJson(res, 200, { id: job.id, request_id: job.id, model: job.model, task_status: "PROCESSING" });
    },
  },
  {
    method: "GET",
    path: "/api/paas/v4/async-result/:id",
    handler: (_request, res, context, params) => {
      const job = context.jobs.get(params.id!);
      if (job?.provider !== "zai-org") {
        sendJson(res, 404, { error: { code: "1211", message: `Task ${params.id} not found` } });
        return;
      }
      const state = context.jobs.poll(job);
      const status = STATUS[state];
      sendJson(res, 200, {
        id: job.id,
        request_id: job.id,
        model: job.model,
        task_status: status,
        ...(status === "SUCCESS" ? { image_result: job.result } : {}),
      });
    },
  },
];
