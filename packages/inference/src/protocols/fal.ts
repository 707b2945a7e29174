import { blobToBase64 } from "../encoding.js";
import type { ProtocolFactory, ResponseContext, RouteOf, TaskSpec } from "../providers/types.js";
import { expectShape, isObject, isString } from "../validate.js";
import { toMediaOutput } from "./binary-media.js";
import { followUpOf } from "./follow-up.js";
import { HUB_OUTPUT_PARSERS } from "./hub-outputs.js";
import { withInputEncoding } from "./input-encoding.js";
import { rebase, runJob } from "./queue-job.js";
import { parametersOf } from "./request-args.js";
import { option } from "./route-options.js";

/** fal runs an SDXL base for its generic LoRA app (as the public client asks it to). */
const FAL_LORA_BASE_MODEL = "stabilityai/stable-diffusion-xl-base-1.0";

/**
 * The input field the route names (`prompt`, `image_url`, `audio_url`; or the one `inputFor` names for the
 * provider's model id) carries `inputs` (and the route's `inputList` field too, as a list). A LoRA adapter model adds its weights as `loras`.
 */
function falBody(route: RouteOf<"fal-sync"> | RouteOf<"fal-queue">): TaskSpec["body"] {
  const input = option(route, "input", "prompt");
  const inputFor = Object.entries(("inputFor" in route && route.inputFor) || {});
  const inputList = "inputList" in route ? route.inputList : undefined;
  return ({ args, loraWeightsUrl, providerModelId }) => {
    const field = inputFor.find(([prefix]) => providerModelId.startsWith(prefix))?.[1] ?? input;
    const body: Record<string, unknown> = {
      ...parametersOf(args),
      ...("syncMode" in route && route.syncMode ? { sync_mode: true } : {}),
      [field]: args.inputs,
    };
    if (inputList && args.inputs !== undefined) body[inputList] = [args.inputs];
    if (loraWeightsUrl) {
      body.loras = [{ path: loraWeightsUrl, scale: 1 }];
      if (providerModelId === "fal-ai/lora") body.model_name = FAL_LORA_BASE_MODEL;
    }
    return body;
  };
}

/** Files travel as data URLs inside fal's JSON. */
const fileInput = (route: RouteOf<"fal-sync"> | RouteOf<"fal-queue">) =>
  option(route, "input", "prompt").endsWith("_url");

function mediaUrl(response: unknown, key: string, task: string): string {
  const value = isObject(response) ? response[key] : undefined;
  const item = Array.isArray(value) ? value[0] : value;
  const url = isObject(item) ? item.url : undefined;
  return expectShape<string>(url, isString(url), task, `{${key}: ${key === "images" ? "[{url}]" : "{url}"}}`);
}

/** The media at `{key: {url}}` (a URL or, in sync mode, a data URL) as base64, with its content type. */
async function mediaBase64(result: unknown, key: string, ctx: ResponseContext) {
  const blob = await followUpOf(ctx).getBlob(mediaUrl(result, key, ctx.task));
  const item = (result as Record<string, Record<string, unknown>>)[key]!;
  const type = isString(item.content_type) ? item.content_type : blob.type;
  return { base64: await blobToBase64(blob), type };
}

/**
 * Parses fal's answer: `text` (speech recognition), the hub's task outputs made from one media file
 * (`audio-sources`: `audio` as `[{label, blob, content-type}]`, labelled with its `text` when there is one;
 * `mask`: `image` as `[{label: "mask", mask, score: 1}]`, fal names no segment), or media at `images` /
 * `audio` / `video`.
 */
async function falOutput(result: unknown, output: string, ctx: ResponseContext): Promise<unknown> {
  if (output === "text") return HUB_OUTPUT_PARSERS["automatic-speech-recognition"]!(result, {});
  if (output === "audio-sources") {
    const { base64, type } = await mediaBase64(result, "audio", ctx);
    const text = (result as Record<string, unknown>).text;
    const label = isString(text) && text !== "" ? text : "speech";
    return [{ label, blob: base64, "content-type": type || "audio/wav" }];
  }
  if (output === "mask") {
    const { base64 } = await mediaBase64(result, "image", ctx);
    return [{ label: "mask", mask: base64, score: 1 }];
  }
  return toMediaOutput({ kind: "url", url: mediaUrl(result, output, ctx.task) }, ctx, result);
}

/** fal.run: POST /{model} answers at once. Route options: `input`, `output`, `syncMode`. */
export const falSync: ProtocolFactory<"fal-sync"> = (route): TaskSpec => ({
  path: ({ providerModelId }) => `/${providerModelId}`,
  body: falBody(route),
  ...(fileInput(route) ? withInputEncoding(() => "data-url") : {}),
  parse: (response, ctx) => falOutput(response, option(route, "output", "images"), ctx),
});

const FAILURE_STATUSES = new Set(["FAILED", "ERROR", "CANCELLED"]);

/** Queue: submit -> GET {response_url}/status every 500 ms until COMPLETED -> GET {response_url}. */
export const falQueue: ProtocolFactory<"fal-queue"> = (route): TaskSpec => ({
  directBaseUrl: "https://queue.fal.run",
  // On a shared host (router, simulator) the queue is selected by a query parameter instead of a host.
  path: ({ providerModelId, sharedHost }) => `/${providerModelId}${sharedHost ? "?_subdomain=queue" : ""}`,
  body: falBody(route),
  ...(fileInput(route) ? withInputEncoding(() => "data-url") : {}),
  parse: async (submit, ctx) => {
    const ok = isObject(submit) && isString(submit.request_id) && isString(submit.response_url);
    expectShape(submit, ok, ctx.task, "{request_id, status, response_url}");
    const query = ctx.sharedHost ? "?_subdomain=queue" : "";
    const responseUrl = (s: Record<string, unknown>) => rebase(String(s.response_url), ctx).split("?")[0]!;
    const result = await runJob(submit, ctx, {
      what: `fal-ai ${ctx.task} job`,
      intervalMs: 500,
      statusUrl: (s) => `${responseUrl(s)}/status${query}`,
      // fal reports a failed request as COMPLETED with an `error`; the result endpoint then fails too.
      state: (status) => {
        if (status.status === "COMPLETED") return status.error ? "failed" : "done";
        return FAILURE_STATUSES.has(String(status.status)) ? "failed" : "pending";
      },
      finishedOnSubmit: (s) => (s.status === "COMPLETED" ? "done" : "pending"),
      result: (_status, s, c) => followUpOf(c).getJson(`${responseUrl(s)}${query}`),
    });
    return falOutput(result, option(route, "output", "video"), ctx);
  },
});
