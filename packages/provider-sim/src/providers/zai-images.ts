import type { Route } from "../context.js";
import { sendJson } from "../http.js";
import type { JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { nextJobOutcome, simMediaUrl } from "./job-support.js";

/**
 * Z.ai's images: layout parsing (image to text), and asynchronous image generation: `POST /api/paas/v4/async/images/generations` -> {id, request_id, model,
 * task_status: PROCESSING}; `GET /api/paas/v4/async-result/{id}` -> task_status PROCESSING | SUCCESS | FAIL with
 * `image_result: [{url}]`.
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "PROCESSING",
  IN_PROGRESS: "PROCESSING",
  COMPLETED: "SUCCESS",
  FAILED: "FAIL",
};

/** Layout parsing: `POST /api/paas/v4/layout_parsing` {model, file: URL or data URL} -> `md_results` (Markdown). */
const layoutParsing: Route = {
  method: "POST",
  path: "/api/paas/v4/layout_parsing",
  handler: (request, res, context) => {
    const body = requireJsonObject(request, res, context);
    if (!body) return;
    const missing = ["model", "file"].find((field) => typeof body[field] !== "string" || body[field] === "");
    if (missing) {
      sendJson(res, 400, { error: { code: "1214", message: `${missing} is required` } });
      return;
    }
    const file = body.file as string;
    if (!file.startsWith("data:image/") && !/^https?:\/\//.test(file)) {
      sendJson(res, 400, { error: { code: "1214", message: "file must be an image URL or data URL" } });
      return;
    }
    sendJson(res, 200, {
      id: `layout-${Date.now()}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      md_results: "# Simulated page\n\nA cat sits on a sofa.",
      layout_details: [
        [{ index: 0, label: "text", content: "A cat sits on a sofa.", bbox_2d: [0, 0, 8, 8] }],
      ],
    });
  },
};

export const zaiImageRoutes: Route[] = [
  layoutParsing,
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
