import { randomUUID } from "node:crypto";
import type { ProviderDefinition } from "../context.js";
import { sendJson } from "../http.js";
import type { JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { nextJobOutcome, simMediaUrl } from "./job-support.js";

/**
 * Black Forest Labs: `POST /v1/{model}` ({prompt, width, height, ...}) -> {id, polling_url};
 * `GET /v1/get_result?id=...` -> {id, status: Pending | Ready | Error | Task not found, result, progress}, with
 * `Retry-After: 1` as recorded. Auth: `X-Key` (or a hub token through the router).
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "Pending",
  IN_PROGRESS: "Pending",
  COMPLETED: "Ready",
  FAILED: "Error",
};

export const blackForestLabs: ProviderDefinition = {
  name: "black-forest-labs",
  realBaseUrl: "https://api.us1.bfl.ai",
  auth: "x-key",
  errors: "detail",
  // The recorded submission names a job id the sim never created; the routes make their own.
  replay: false,
  routes: [
    {
      method: "GET",
      path: "/v1/get_result",
      handler: (request, res, context) => {
        const id = request.query.get("id") ?? "";
        const job = context.jobs.get(id);
        if (job?.provider !== "black-forest-labs") {
          sendJson(res, 200, { id, status: "Task not found", result: null, progress: null });
          return;
        }
        const state = context.jobs.poll(job);
        const input = job.input as { prompt?: string; seed?: number };
        sendJson(
          res,
          200,
          {
            id,
            status: STATUS[state],
            result:
              state === "COMPLETED"
                ? { sample: job.result, prompt: input.prompt, seed: input.seed ?? 42, duration: 0.01 }
                : null,
            progress: state === "IN_QUEUE" ? 0 : state === "IN_PROGRESS" ? 0.6 : null,
            ...(state === "FAILED" && job.outcome.kind === "fail"
              ? { details: { error: job.outcome.message } }
              : {}),
          },
          { "retry-after": "1" },
        );
      },
    },
    {
      method: "POST",
      path: "/v1/:model",
      handler: (request, res, context, params) => {
        const body = requireJsonObject(request, res, context);
        if (!body) return;
        if (typeof body.prompt !== "string" || body.prompt === "") {
          sendJson(res, 422, {
            detail: [{ type: "missing", loc: ["body", "prompt"], msg: "Field required", input: body }],
          });
          return;
        }
        const id = randomUUID();
        context.jobs.create({
          id,
          provider: "black-forest-labs",
          model: params.model!,
          input: body,
          result: simMediaUrl(context, "jpeg", `${id}/sample`),
          outcome: nextJobOutcome(context),
          steps: context.jobSteps,
        });
        sendJson(res, 200, { id, polling_url: `${context.providerUrl}/v1/get_result?id=${id}` });
      },
    },
  ],
};
