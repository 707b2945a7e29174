import { toMediaOutput } from "../protocols/binary-media.js";
import { runJob } from "../protocols/queue-job.js";
import { expectShape, isObject, isString } from "../validate.js";
import { openAiCompatible } from "./openai-compatible.js";

type Task = { status?: string; reason?: string };
const taskOf = (s: Record<string, unknown>): Task => (isObject(s.task) ? (s.task as Task) : {});

/** Novita: OpenAI-compatible text under /v3/openai; video is an async task polled by id. */
export const novita = openAiCompatible({
  id: "novita",
  baseUrl: "https://api.novita.ai",
  apiKeyEnv: "NOVITA_API_KEY",
  chatPath: "/v3/openai/chat/completions",
  completionsPath: "/v3/openai/completions",
  tasks: {
    "text-to-video": {
      path: ({ providerModelId }) => `/v3/async/${providerModelId}`,
      body: ({ args }) => ({ ...(isObject(args.parameters) ? args.parameters : {}), prompt: args.inputs }),
      parse: async (submit, ctx) => {
        expectShape(submit, isObject(submit) && isString(submit.task_id), "text-to-video", "{task_id}");
        const done = (await runJob(submit, ctx, {
          what: "novita video task",
          intervalMs: 500,
          statusUrl: (s) =>
            `${ctx.base}/v3/async/task-result?task_id=${encodeURIComponent(String(s.task_id))}`,
          state: (s) => {
            const status = taskOf(s).status;
            if (status === "TASK_STATUS_SUCCEED") return "done";
            return status === "TASK_STATUS_FAILED" ? "failed" : "pending";
          },
        })) as Record<string, unknown>;
        const videos = done.videos;
        const url = Array.isArray(videos) && isObject(videos[0]) ? videos[0].video_url : undefined;
        expectShape(done, isString(url), "text-to-video", "{videos: [{video_url}]}");
        return toMediaOutput({ kind: "url", url: url as string }, ctx, done);
      },
    },
  },
});
