import type { ProtocolFactory, TaskSpec } from "../providers/types.js";
import type { InferenceTask, TextGenerationStreamOutput } from "../types.js";
import { expectShape, isObject } from "../validate.js";
import { BASE64_IMAGE_TASKS, BINARY_INPUT_TASKS, HUB_OUTPUT_PARSERS } from "./hub-outputs.js";
import { withInputEncoding } from "./input-encoding.js";

/** Feature extraction and sentence similarity are served on an explicit pipeline route. */
const PIPELINE_ROUTED = new Set<InferenceTask>(["feature-extraction", "sentence-similarity"]);

/**
 * The hub's pipeline protocol (hf-inference, TGI-style servers): `{inputs, parameters}` as JSON, or the
 * file as raw bytes, to `/models/{model}` (`/pipeline/{task}/{model}` for embeddings and similarity).
 */
export const hfPipeline: ProtocolFactory<"hf-pipeline"> = (_route, task): TaskSpec => {
  const parse = HUB_OUTPUT_PARSERS[task];
  if (!parse) throw new Error(`hf-pipeline has no output parser for ${task}`);
  const spec: TaskSpec = {
    path: ({ providerModelId }) =>
      PIPELINE_ROUTED.has(task) ? `/pipeline/${task}/${providerModelId}` : `/models/${providerModelId}`,
    body: ({ args, stream }) => (stream ? { ...args, stream: true } : args),
    parse: (response, ctx) => parse(response, ctx.args),
  };
  if (BINARY_INPUT_TASKS.has(task)) {
    // The file goes as raw bytes; with parameters the body must be JSON, so the file becomes base64.
    Object.assign(
      spec,
      withInputEncoding((args) => (args.parameters === undefined ? "raw" : "base64")),
    );
  } else if (BASE64_IMAGE_TASKS.has(task)) {
    Object.assign(
      spec,
      withInputEncoding(() => "base64"),
    );
  }
  if (task === "text-generation") {
    spec.streams = true;
    spec.parseEvent = (event): TextGenerationStreamOutput => {
      const ok = isObject(event) && isObject(event.token);
      return expectShape(event, ok, "text generation stream", "{token: {id, text}, generated_text}");
    };
  }
  return spec;
};
