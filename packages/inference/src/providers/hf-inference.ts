import { BASE64_IMAGE_TASKS, BINARY_INPUT_TASKS, HUB_OUTPUT_PARSERS } from "../protocols/hub-outputs.js";
import { openAiChat } from "../protocols/openai-chat.js";
import type { InferenceTask, TextGenerationStreamOutput } from "../types.js";
import { expectShape, isObject } from "../validate.js";
import type { ProviderConfig, TaskSpec } from "./types.js";

/** Feature extraction and sentence similarity are served on an explicit pipeline route. */
const PIPELINE_ROUTED = new Set<InferenceTask>(["feature-extraction", "sentence-similarity"]);

function pipelineTask(task: InferenceTask): TaskSpec {
  const parse = HUB_OUTPUT_PARSERS[task]!;
  const spec: TaskSpec = {
    path: ({ providerModelId }) =>
      PIPELINE_ROUTED.has(task) ? `/pipeline/${task}/${providerModelId}` : `/models/${providerModelId}`,
    body: ({ args, stream }) => (stream ? { ...args, stream: true } : args),
    parse: (response, ctx) => parse(response, ctx.args),
  };
  if (BINARY_INPUT_TASKS.has(task)) {
    // The file goes as raw bytes; with parameters the body must be JSON, so the file becomes base64.
    spec.inputEncoding = (args) => (args.parameters === undefined ? "raw" : "base64");
  } else if (BASE64_IMAGE_TASKS.has(task)) {
    spec.inputEncoding = () => "base64";
  }
  if (task === "text-generation") {
    spec.streams = true;
    spec.parseEvent = (event): TextGenerationStreamOutput => {
      const ok = isObject(event) && isObject(event.token);
      return expectShape(event, ok, "text generation stream", "{token: {id, text}, generated_text}");
    };
  }
  return spec;
}

const tasks: ProviderConfig["tasks"] = {
  conversational: {
    ...openAiChat(),
    path: ({ providerModelId }) => `/models/${providerModelId}/v1/chat/completions`,
    // The model is in the route (the recorded router traffic sends none); an endpointUrl server
    // (vLLM, llama.cpp, Ollama) needs it in the body.
    body: ({ args, stream, providerModelId, endpoint }) => ({
      ...args,
      ...(stream ? { stream: true } : {}),
      ...(endpoint ? { model: providerModelId } : {}),
    }),
  },
};
for (const task of Object.keys(HUB_OUTPUT_PARSERS) as InferenceTask[]) tasks[task] = pipelineTask(task);

/** The hub's own serverless inference; reached only through the router (it has no separate host). */
export const hfInference: ProviderConfig = {
  id: "hf-inference",
  baseUrl: "https://router.huggingface.co/hf-inference",
  apiKeyEnv: "HF_TOKEN",
  tasks,
};
