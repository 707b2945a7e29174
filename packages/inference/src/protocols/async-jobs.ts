import type { ProtocolFactory, TaskSpec } from "../providers/types.js";
import { expectShape, isObject, isString } from "../validate.js";
import { toMediaOutput } from "./binary-media.js";
import { withInputEncoding } from "./input-encoding.js";
import { rebase, runJob } from "./queue-job.js";
import { parametersOf } from "./request-args.js";

/** Provider-specific asynchronous jobs, each: submit, the one polling loop, then the media. */

const BFL_FAILURES = new Set(["Error", "Content Moderated", "Request Moderated", "Task not found"]);

/** Black Forest Labs: POST /v1/{model}, then poll `polling_url` every 1 s, at most 5 times, until Ready. */
export const bflJob: ProtocolFactory<"bfl-job"> = (): TaskSpec => ({
  path: ({ providerModelId }) => `/v1/${providerModelId}`,
  body: ({ args }) => ({ ...parametersOf(args), prompt: args.inputs }),
  parse: async (submit, ctx) => {
    const ok = isObject(submit) && (isString(submit.polling_url) || isString(submit.id));
    expectShape(submit, ok, "text-to-image", "{id, polling_url}");
    const done = (await runJob(submit, ctx, {
      what: "black-forest-labs image generation",
      intervalMs: 1000,
      maxAttempts: 5,
      statusUrl: (s, attempt) => {
        const url = isString(s.polling_url) ? s.polling_url : `${ctx.base}/v1/get_result?id=${s.id}`;
        return `${rebase(url, ctx)}${url.includes("?") ? "&" : "?"}attempt=${attempt}`;
      },
      state: (s) =>
        s.status === "Ready" ? "done" : BFL_FAILURES.has(String(s.status)) ? "failed" : "pending",
    })) as Record<string, unknown>;
    const sample = isObject(done.result) ? done.result.sample : undefined;
    expectShape(done, isString(sample), "text-to-image", "{status: Ready, result: {sample: url}}");
    return toMediaOutput({ kind: "url", url: sample as string }, ctx, done);
  },
});

type NovitaTask = { status?: string };
const novitaTask = (s: Record<string, unknown>): NovitaTask =>
  isObject(s.task) ? (s.task as NovitaTask) : {};

/** Novita video: POST /v3/async/{model} -> {task_id}; poll /v3/async/task-result until SUCCEED. */
export const novitaVideo: ProtocolFactory<"novita-video"> = (): TaskSpec => ({
  path: ({ providerModelId }) => `/v3/async/${providerModelId}`,
  body: ({ args }) => ({ ...parametersOf(args), prompt: args.inputs }),
  parse: async (submit, ctx) => {
    expectShape(submit, isObject(submit) && isString(submit.task_id), "text-to-video", "{task_id}");
    const done = (await runJob(submit, ctx, {
      what: "novita video task",
      intervalMs: 500,
      statusUrl: (s) => `${ctx.base}/v3/async/task-result?task_id=${encodeURIComponent(String(s.task_id))}`,
      state: (s) => {
        const status = novitaTask(s).status;
        if (status === "TASK_STATUS_SUCCEED") return "done";
        return status === "TASK_STATUS_FAILED" ? "failed" : "pending";
      },
    })) as Record<string, unknown>;
    const videos = done.videos;
    const url = Array.isArray(videos) && isObject(videos[0]) ? videos[0].video_url : undefined;
    expectShape(done, isString(url), "text-to-video", "{videos: [{video_url}]}");
    return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
  },
});

const ZAI_IMAGE_PATH = "/api/paas/v4/async/images/generations";

/**
 * Z.ai image generation (docs.z.ai, "Generate Image (Async)"): POST /api/paas/v4/async/images/generations
 * -> {id, task_status: PROCESSING}; poll /api/paas/v4/async-result/{id} until SUCCESS -> `image_result[0].url`.
 */
export const zaiImageJob: ProtocolFactory<"zai-image-job"> = (): TaskSpec => ({
  path: () => ZAI_IMAGE_PATH,
  body: ({ args, providerModelId }) => ({
    ...parametersOf(args),
    prompt: args.inputs,
    model: providerModelId,
  }),
  parse: async (submit, ctx) => {
    expectShape(submit, isObject(submit) && isString(submit.id), ctx.task, "{id, task_status}");
    const done = (await runJob(submit, ctx, {
      what: "zai-org image generation",
      intervalMs: 500,
      statusUrl: (s) => `${ctx.base}/api/paas/v4/async-result/${encodeURIComponent(String(s.id))}`,
      state: (s) => (s.task_status === "SUCCESS" ? "done" : s.task_status === "FAIL" ? "failed" : "pending"),
    })) as Record<string, unknown>;
    const images = done.image_result;
    const url = Array.isArray(images) && isObject(images[0]) ? images[0].url : undefined;
    expectShape(done, isString(url), ctx.task, "{task_status: SUCCESS, image_result: [{url}]}");
    return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
  },
});

const wavespeedData = (s: Record<string, unknown>) => (isObject(s.data) ? s.data : {});

/**
 * WaveSpeedAI: POST /api/v3/{model} -> poll `data.urls.get` until completed -> `data.outputs[0]`.
 * Route option `imageInput: true` sends `inputs` (base64) as `image` instead of `prompt`.
 */
export const wavespeedJob: ProtocolFactory<"wavespeed-job"> = (route): TaskSpec => {
  const imageInput = route.imageInput === true;
  return {
    path: ({ providerModelId }) => `/api/v3/${providerModelId}`,
    ...(imageInput ? withInputEncoding(() => "base64") : {}),
    body: ({ args }) =>
      imageInput
        ? { ...parametersOf(args), image: args.inputs }
        : { ...parametersOf(args), prompt: args.inputs },
    parse: async (submit, ctx) => {
      const ok = isObject(submit) && isObject(submit.data) && isObject(submit.data.urls);
      expectShape(submit, ok, ctx.task, "{data: {id, urls: {get}}}");
      const done = (await runJob(submit, ctx, {
        what: `wavespeed ${ctx.task} task`,
        intervalMs: 500,
        statusUrl: (s) => rebase(String((wavespeedData(s).urls as Record<string, unknown>).get), ctx),
        state: (s) => {
          const status = wavespeedData(s).status;
          return status === "completed" ? "done" : status === "failed" ? "failed" : "pending";
        },
      })) as Record<string, unknown>;
      const outputs = wavespeedData(done).outputs;
      const url = Array.isArray(outputs) ? outputs[0] : undefined;
      expectShape(done, isString(url), ctx.task, "{data: {outputs: [url]}}");
      return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
    },
  };
};

/** Together's names for the hub's video parameters: `steps`, and `width` / `height` from `target_size`. */
function togetherVideoParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  const { num_inference_steps: steps, target_size: size, ...rest } = parameters;
  if (steps !== undefined) rest.steps = steps;
  if (isObject(size)) {
    if (size.width !== undefined) rest.width = size.width;
    if (size.height !== undefined) rest.height = size.height;
  }
  return rest;
}

const TOGETHER_VIDEO_PENDING = new Set([undefined, "queued", "in_progress"]);

/**
 * Together's videos (docs.together.ai/reference/create-videos): POST /v2/videos {model, prompt} -> {id,
 * status: queued}; poll GET /v2/videos/{id} every 2 s (as both hub clients) until completed ->
 * `outputs.video_url`. Route option `imageInput: true`: the image (a data URL) is the first keyframe,
 * `frame_images: [{input_image, frame: "first"}]`, and the prompt comes from `parameters`.
 */
export const togetherVideo: ProtocolFactory<"together-video"> = (route): TaskSpec => {
  const imageInput = route.imageInput === true;
  const state = (s: Record<string, unknown>) =>
    s.status === "completed" ? "done" : TOGETHER_VIDEO_PENDING.has(s.status as string) ? "pending" : "failed";
  return {
    path: () => "/v2/videos",
    ...(imageInput ? withInputEncoding(() => "data-url") : {}),
    body: ({ args, providerModelId }) => {
      const parameters = togetherVideoParameters(parametersOf(args));
      if (!imageInput) return { prompt: args.inputs, model: providerModelId, ...parameters };
      return {
        model: providerModelId,
        frame_images: [{ input_image: args.inputs, frame: "first" }],
        ...parameters,
      };
    },
    parse: async (submit, ctx) => {
      expectShape(submit, isObject(submit) && isString(submit.id), ctx.task, "{id, status}");
      const done = (await runJob(submit, ctx, {
        what: `together ${ctx.task} job`,
        intervalMs: 2000,
        statusUrl: (s) => `${ctx.base}/v2/videos/${encodeURIComponent(String(s.id))}`,
        state,
        finishedOnSubmit: state,
      })) as Record<string, unknown>;
      const url = isObject(done.outputs) ? done.outputs.video_url : undefined;
      expectShape(done, isString(url), ctx.task, "{status: completed, outputs: {video_url}}");
      return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
    },
  };
};
