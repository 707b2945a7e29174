import { toMediaOutput } from "../protocols/binary-media.js";
import { HUB_OUTPUT_PARSERS } from "../protocols/hub-outputs.js";
import { rebase, runJob } from "../protocols/queue-job.js";
import { expectShape, isObject, isString } from "../validate.js";
import type { ResponseContext, TaskSpec } from "./types.js";

/** fal.ai wants its own key as `Authorization: Key <key>`; hub tokens go through the router as Bearer. */
const params = (args: Record<string, unknown>) => (isObject(args.parameters) ? args.parameters : {});

function mediaUrl(response: unknown, key: "images" | "image" | "video" | "audio", task: string): string {
  const value = isObject(response) ? response[key] : undefined;
  const item = Array.isArray(value) ? value[0] : value;
  const url = isObject(item) ? item.url : undefined;
  return expectShape<string>(url, isString(url), task, `{${key}: ${key === "images" ? "[{url}]" : "{url}"}}`);
}

const syncImage = (body: TaskSpec["body"]): TaskSpec => ({
  path: ({ providerModelId }) => `/${providerModelId}`,
  body,
  parse: (response, ctx) =>
    toMediaOutput({ kind: "url", url: mediaUrl(response, "images", ctx.task) }, ctx, response),
});

const FAILURE_STATUSES = new Set(["FAILED", "ERROR", "CANCELLED"]);

/** Queue: submit -> GET {response_url}/status every 500 ms until COMPLETED -> GET {response_url}. */
function queued(body: TaskSpec["body"], key: "video" | "images"): TaskSpec {
  return {
    directBaseUrl: "https://queue.fal.run",
    // On a shared host (router, simulator) the queue is selected by a query parameter instead of a host.
    path: ({ providerModelId, sharedHost }) => `/${providerModelId}${sharedHost ? "?_subdomain=queue" : ""}`,
    body,
    parse: async (submit, ctx) => {
      const ok = isObject(submit) && isString(submit.request_id) && isString(submit.response_url);
      expectShape(submit, ok, ctx.task, "{request_id, status, response_url}");
      const query = (ctx: ResponseContext) => (ctx.sharedHost ? "?_subdomain=queue" : "");
      const responseUrl = (s: Record<string, unknown>, c: ResponseContext) =>
        rebase(String(s.response_url), c).split("?")[0]!;
      const result = await runJob(submit, ctx, {
        what: `fal-ai ${ctx.task} job`,
        intervalMs: 500,
        statusUrl: (s, _attempt, c) => `${responseUrl(s, c)}/status${query(c)}`,
        // fal reports a failed request as COMPLETED with an `error`; the result endpoint then fails too.
        state: (status) => {
          if (status.status === "COMPLETED") return status.error ? "failed" : "done";
          return FAILURE_STATUSES.has(String(status.status)) ? "failed" : "pending";
        },
        finishedOnSubmit: (s) => (s.status === "COMPLETED" ? "done" : "pending"),
        result: (_status, s, c) => c.followUp.getJson(`${responseUrl(s, c)}${query(c)}`),
      });
      return toMediaOutput({ kind: "url", url: mediaUrl(result, key, ctx.task) }, ctx, result);
    },
  };
}

export const falAi = {
  id: "fal-ai" as const,
  baseUrl: "https://fal.run",
  apiKeyEnv: "FAL_KEY",
  authHeader: (key: string): [string, string] => ["Authorization", `Key ${key}`],
  tasks: {
    "text-to-image": syncImage(({ args }) => ({ ...params(args), sync_mode: true, prompt: args.inputs })),
    "image-to-image": {
      ...syncImage(({ args }) => ({ ...params(args), image_url: args.inputs })),
      inputEncoding: () => "data-url" as const,
    },
    "automatic-speech-recognition": {
      path: ({ providerModelId }) => `/${providerModelId}`,
      inputEncoding: () => "data-url" as const,
      body: ({ args }) => ({ ...params(args), audio_url: args.inputs }),
      parse: (response) => HUB_OUTPUT_PARSERS["automatic-speech-recognition"]!(response, {}),
    },
    "text-to-speech": {
      path: ({ providerModelId }) => `/${providerModelId}`,
      body: ({ args }) => ({ ...params(args), prompt: args.inputs }),
      parse: (response, ctx) =>
        toMediaOutput({ kind: "url", url: mediaUrl(response, "audio", ctx.task) }, ctx, response),
    },
    "text-to-video": queued(({ args }) => ({ ...params(args), prompt: args.inputs }), "video"),
    "image-to-video": {
      ...queued(({ args }) => ({ ...params(args), image_url: args.inputs }), "video"),
      inputEncoding: () => "data-url" as const,
    },
  } satisfies Record<string, TaskSpec>,
};

/** Content types fal.ai accepts for speech recognition (spec §5). */
export const FAL_AUDIO_CONTENT_TYPES = ["audio/mpeg", "audio/mp4", "audio/wav", "audio/x-wav"];
