import type { ProtocolFactory, ResponseContext, TaskSpec } from "../providers/types.js";
import { expectShape, isObject, isString } from "../validate.js";
import { toMediaOutput } from "./binary-media.js";
import { withInputEncoding } from "./input-encoding.js";
import { rebase, runJob } from "./queue-job.js";
import { option } from "./route-options.js";

/**
 * Replicate predictions. A model id "owner/name:version" posts to /v1/predictions with the version;
 * "owner/name" posts to the model's own predictions route. `Prefer: wait` usually returns the output at
 * once; otherwise `urls.get` is polled until succeeded / failed / canceled. Route option: `input`.
 */
export const replicatePrediction: ProtocolFactory<"replicate-prediction"> = (route): TaskSpec => {
  const inputKey = option(route, "input", "prompt");
  return {
    path: ({ providerModelId }) =>
      providerModelId.includes(":") ? "/v1/predictions" : `/v1/models/${providerModelId}/predictions`,
    headers: () => ({ Prefer: "wait" }),
    ...withInputEncoding(() => "data-url"),
    body: ({ args, providerModelId }) => {
      const { inputs, parameters } = args;
      const version = providerModelId.includes(":") ? providerModelId.split(":")[1] : undefined;
      return {
        input: { ...(isObject(parameters) ? parameters : {}), [inputKey]: inputs },
        ...(version ? { version } : {}),
      };
    },
    parse: async (submit, ctx) => {
      const done = await runJob(submit, ctx, {
        what: `replicate ${ctx.task} prediction`,
        intervalMs: 1000,
        statusUrl: (s) => rebase(String((s.urls as Record<string, unknown> | undefined)?.get), ctx),
        state: predictionState,
        finishedOnSubmit: predictionState,
      });
      if (route.output === "text") return { text: outputText(done, ctx) };
      return toMediaOutput({ kind: "url", url: outputUrl(done, ctx) }, ctx, done);
    },
  };
};

function predictionState(p: Record<string, unknown>): "pending" | "done" | "failed" {
  if (p.status === "failed" || p.status === "canceled") return "failed";
  if (p.output !== null && p.output !== undefined) return "done";
  return p.status === "succeeded" ? "done" : "pending";
}

/** A transcript: the output itself, its first item, or its `transcription` / `translation` field. */
function outputText(p: unknown, ctx: ResponseContext): string {
  const output = isObject(p) ? p.output : undefined;
  const first = Array.isArray(output) ? output[0] : output;
  const text = isObject(first) ? (first.transcription ?? first.translation) : first;
  return expectShape<string>(text, isString(text), ctx.task, "{output: text | [text] | {transcription}}");
}

function outputUrl(p: unknown, ctx: ResponseContext): string {
  const output = isObject(p) ? p.output : undefined;
  const url = Array.isArray(output) ? output[0] : output;
  return expectShape<string>(url, isString(url), ctx.task, "{output: url | url[]}");
}
