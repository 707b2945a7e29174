import { toMediaOutput } from "../protocols/binary-media.js";
import { rebase, runJob } from "../protocols/queue-job.js";
import { expectShape, isObject, isString } from "../validate.js";
import type { ProviderConfig } from "./types.js";

const FAILURES = new Set(["Error", "Content Moderated", "Request Moderated", "Task not found"]);

/** Black Forest Labs: POST /v1/{model}, then poll `polling_url` every 1 s, at most 5 times, until Ready. */
export const blackForestLabs: ProviderConfig = {
  id: "black-forest-labs",
  baseUrl: "https://api.us1.bfl.ai",
  apiKeyEnv: "BFL_API_KEY",
  authHeader: (key) => ["X-Key", key],
  tasks: {
    "text-to-image": {
      path: ({ providerModelId }) => `/v1/${providerModelId}`,
      body: ({ args }) => ({ ...(isObject(args.parameters) ? args.parameters : {}), prompt: args.inputs }),
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
            s.status === "Ready" ? "done" : FAILURES.has(String(s.status)) ? "failed" : "pending",
        })) as Record<string, unknown>;
        const sample = isObject(done.result) ? done.result.sample : undefined;
        expectShape(done, isString(sample), "text-to-image", "{status: Ready, result: {sample: url}}");
        return toMediaOutput({ kind: "url", url: sample as string }, ctx, done);
      },
    },
  },
};
