import { toMediaOutput } from "../protocols/binary-media.js";
import { rebase, runJob } from "../protocols/queue-job.js";
import { expectShape, isObject, isString } from "../validate.js";
import type { ProviderConfig, TaskSpec } from "./types.js";

const data = (s: Record<string, unknown>) => (isObject(s.data) ? s.data : {});

/** WaveSpeedAI: POST /api/v3/{model} -> poll `data.urls.get` until completed -> `data.outputs[0]`. */
function wavespeedTask(imageInput: boolean): TaskSpec {
  return {
    path: ({ providerModelId }) => `/api/v3/${providerModelId}`,
    ...(imageInput ? { inputEncoding: () => "base64" as const } : {}),
    body: ({ args }) => {
      const parameters = isObject(args.parameters) ? args.parameters : {};
      return imageInput ? { ...parameters, image: args.inputs } : { ...parameters, prompt: args.inputs };
    },
    parse: async (submit, ctx) => {
      const ok = isObject(submit) && isObject(submit.data) && isObject(submit.data.urls);
      expectShape(submit, ok, ctx.task, "{data: {id, urls: {get}}}");
      const done = (await runJob(submit, ctx, {
        what: `wavespeed ${ctx.task} task`,
        intervalMs: 500,
        statusUrl: (s) => rebase(String((data(s).urls as Record<string, unknown>).get), ctx),
        state: (s) => {
          const status = data(s).status;
          return status === "completed" ? "done" : status === "failed" ? "failed" : "pending";
        },
      })) as Record<string, unknown>;
      const outputs = data(done).outputs;
      const url = Array.isArray(outputs) ? outputs[0] : undefined;
      expectShape(done, isString(url), ctx.task, "{data: {outputs: [url]}}");
      return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
    },
  };
}

export const wavespeed: ProviderConfig = {
  id: "wavespeed",
  baseUrl: "https://api.wavespeed.ai",
  apiKeyEnv: "WAVESPEED_API_KEY",
  tasks: {
    "text-to-image": wavespeedTask(false),
    "image-to-image": wavespeedTask(true),
    "image-to-video": wavespeedTask(true),
  },
};
