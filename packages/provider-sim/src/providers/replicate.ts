import type { ServerResponse } from "node:http";
import type { ProviderDefinition, SimContext } from "../context.js";
import { headerValue, type SimRequest, sendJson, sendText } from "../http.js";
import type { Job, JobState } from "../jobs.js";
import { requireJsonObject } from "../protocols/json-body.js";
import { canonicalJson, fillSimUrl, findRecording, recordedExchanges } from "../recorded-traffic.js";
import { replayExchange } from "../replay.js";
import { mediaKindOfTask, nextJobOutcome, simMediaUrl, taskOfProviderModel } from "./job-support.js";

/**
 * Replicate predictions. `POST /v1/models/{owner}/{name}/predictions` ({input}) or `POST /v1/predictions`
 * ({version, input}) -> 201 prediction; `GET /v1/predictions/{id}` (the `urls.get` it returns) polls it:
 * starting -> processing -> succeeded | failed | canceled. `Prefer: wait[=n]` answers once it is done.
 * A request identical to a recorded one gets the recorded output (pointing at the sim's media).
 */

const STATUS: Record<JobState, string> = {
  IN_QUEUE: "starting",
  IN_PROGRESS: "processing",
  COMPLETED: "succeeded",
  FAILED: "failed",
};

interface PredictionTarget {
  model: string;
  version: string;
}

function problem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  extra: object = {},
): void {
  sendText(res, status, JSON.stringify({ detail, status, title, ...extra }), {
    "content-type": "application/problem+json",
  });
}

function additionalPropertyError(res: ServerResponse, property: string): void {
  const description = `Additional property ${property} is not allowed`;
  problem(res, 422, "Input validation failed", `- ${description}\n`, {
    invalid_fields: [{ type: "additional_property_not_allowed", field: "", description }],
  });
}

/** Recorded output for an identical request, so replays return what Replicate really returned. */
function recordedOutput(context: SimContext, path: string, bodyText: string): unknown {
  const wanted = canonicalJson(bodyText);
  const exchange = recordedExchanges().find(
    (candidate) =>
      candidate.provider === "replicate" &&
      candidate.status === 201 &&
      candidate.path === path &&
      candidate.requestBody !== null &&
      canonicalJson(candidate.requestBody) === wanted,
  );
  if (!exchange) return undefined;
  return (JSON.parse(fillSimUrl(exchange.responseBody, context.simUrl)) as { output?: unknown }).output;
}

function outputFor(context: SimContext, task: string): unknown {
  // openai/whisper on Replicate: the transcript and its segments (replicate.com/openai/whisper/api/schema).
  if (task === "automatic-speech-recognition") {
    const text = "This is a simulated transcript.";
    return {
      transcription: text,
      segments: [{ id: 0, start: 0, end: 1.5, text }],
      translation: null,
      txt_file: null,
      srt_file: null,
      detected_language: "english",
    };
  }
  const url = simMediaUrl(context, task === "text-to-image" ? "webp" : mediaKindOfTask(task));
  return task === "text-to-image" || task === "image-to-image" ? [url] : url;
}

function predictionJson(context: SimContext, job: Job, state: JobState) {
  const target = job.input as { prediction: PredictionTarget; input: unknown };
  const base = `${context.providerUrl}/v1/predictions/${job.id}`;
  const created = new Date(job.createdAt).toISOString();
  const failed = state === "FAILED";
  return {
    id: job.id,
    model: target.prediction.model,
    version: target.prediction.version,
    input: target.input,
    logs: state === "IN_QUEUE" ? "" : "Simulated prediction\n",
    output: state === "COMPLETED" ? job.result : null,
    data_removed: false,
    error: failed && job.outcome.kind === "fail" ? job.outcome.message : null,
    status: job.canceled ? "canceled" : STATUS[state],
    created_at: created,
    ...(state === "COMPLETED" || failed ? { completed_at: new Date().toISOString() } : {}),
    urls: { cancel: `${base}/cancel`, get: base, stream: `${context.providerUrl}/stream/${job.id}` },
  };
}

function create(request: SimRequest, res: ServerResponse, context: SimContext, fixedModel?: string) {
  // Recorded refusals (a model's own input schema, which the sim does not know) are replayed as they were.
  const refusal = findRecording({
    provider: "replicate",
    method: "POST",
    path: request.path,
    bodyText: request.bodyText,
    isJson: request.isJson,
  });
  if (refusal && refusal.status >= 400) return replayExchange(refusal, res, context);
  const body = requireJsonObject(request, res, context);
  if (!body) return;
  const allowed = fixedModel
    ? ["input", "webhook", "webhook_events_filter", "stream"]
    : ["input", "version", "webhook", "webhook_events_filter", "stream"];
  const extra = Object.keys(body).find((key) => !allowed.includes(key));
  if (extra) return additionalPropertyError(res, extra);
  if (typeof body.input !== "object" || body.input === null) {
    return problem(res, 422, "Input validation failed", "- input is required\n");
  }
  let target: PredictionTarget;
  if (fixedModel) {
    target = { model: fixedModel, version: `dp-${fixedModel.replace(/\W/g, "").slice(0, 24)}` };
  } else {
    if (typeof body.version !== "string" || body.version === "") {
      return problem(res, 422, "Input validation failed", "- version is required\n");
    }
    const [model, version] = body.version.includes(":") ? body.version.split(":", 2) : ["", body.version];
    target = { model: model || "replicate/simulated", version: version! };
  }
  const task = taskOfProviderModel(context, fixedModel ?? target.version);
  const job = context.jobs.create({
    provider: "replicate",
    model: target.model,
    input: { prediction: target, input: body.input },
    result: recordedOutput(context, request.path, request.bodyText) ?? outputFor(context, task),
    outcome: nextJobOutcome(context),
    steps: context.jobSteps,
  });
  const prefer = headerValue(request.headers, "prefer");
  const wait = prefer ? /^wait(?:=(\d+))?$/.exec(prefer.trim()) : null;
  const state = wait ? context.jobs.finish(job) : context.jobs.poll(job);
  sendJson(
    res,
    201,
    predictionJson(context, job, state),
    wait ? { "preference-applied": `wait=${wait[1] ?? 60}` } : {},
  );
}

function findJob(res: ServerResponse, context: SimContext, id: string): Job | undefined {
  const job = context.jobs.get(id);
  if (job?.provider !== "replicate")
    problem(res, 404, "Not found", "The requested resource could not be found.");
  return job;
}

export const replicate: ProviderDefinition = {
  name: "replicate",
  realBaseUrl: "https://api.replicate.com",
  auth: "bearer",
  errors: "replicate",
  // Predictions need the job state machine, so recorded creations are handled by the routes (recordedOutput).
  replay: false,
  routes: [
    {
      method: "POST",
      path: "/v1/models/:owner/:name/predictions",
      handler: (request, res, context, params) =>
        create(request, res, context, `${params.owner}/${params.name}`),
    },
    {
      method: "POST",
      path: "/v1/predictions",
      handler: (request, res, context) => create(request, res, context),
    },
    {
      method: "GET",
      path: "/v1/predictions/:id",
      handler: (_request, res, context, params) => {
        const job = findJob(res, context, params.id!);
        if (job) sendJson(res, 200, predictionJson(context, job, context.jobs.poll(job)));
      },
    },
    {
      method: "POST",
      path: "/v1/predictions/:id/cancel",
      handler: (_request, res, context, params) => {
        const job = findJob(res, context, params.id!);
        if (!job) return;
        if (context.jobs.state(job) === "IN_QUEUE" || context.jobs.state(job) === "IN_PROGRESS") {
          job.canceled = true;
          job.outcome = { kind: "fail", message: "Prediction was canceled" };
          job.polls = Math.max(job.polls, job.steps);
        }
        sendJson(res, 200, predictionJson(context, job, context.jobs.state(job)));
      },
    },
  ],
};
