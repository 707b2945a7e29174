import type { TaskSpec } from "../providers/types.js";
import type { FeatureExtractionOutput } from "../types.js";
import { expectShape, isArrayOf, isNumberTensor, isObject, isString } from "../validate.js";
import { toMediaOutput } from "./binary-media.js";

/** OpenAI-style embeddings: `{input, model}` -> `data[].embedding`. */
export function openAiEmbeddings(path = "/v1/embeddings"): TaskSpec {
  return {
    path: () => path,
    body: ({ args, providerModelId }) => {
      const { inputs, parameters, ...rest } = args;
      return { ...rest, ...(isObject(parameters) ? parameters : {}), input: inputs, model: providerModelId };
    },
    parse: (response): FeatureExtractionOutput => {
      const ok =
        isObject(response) && isArrayOf(response.data, (x) => isObject(x) && isNumberTensor(x.embedding));
      expectShape(response, ok, "feature-extraction", "{data: [{embedding: number[]}]}");
      return (response as { data: Array<{ embedding: number[] }> }).data.map((item) => item.embedding);
    },
  };
}

/**
 * OpenAI-style image generation returning base64: `{...parameters, response_format, prompt, model}`
 * -> `data[0].b64_json`. `modelField` / `responseFormat` cover providers that rename them.
 */
export function openAiImages(
  options: { path?: string; responseFormat?: string; modelField?: string; mime?: string } = {},
): TaskSpec {
  const { path = "/v1/images/generations", responseFormat = "b64_json", modelField = "model" } = options;
  return {
    path: () => path,
    body: ({ args, providerModelId }) => {
      const { inputs, parameters, ...rest } = args;
      return {
        ...rest,
        ...(isObject(parameters) ? parameters : {}),
        ...(responseFormat ? { response_format: responseFormat } : {}),
        prompt: inputs,
        [modelField]: providerModelId,
      };
    },
    parse: (response, ctx) => {
      const ok =
        isObject(response) &&
        isArrayOf(response.data, (x) => isObject(x) && isString(x.b64_json)) &&
        (response.data as unknown[]).length > 0;
      expectShape(response, ok, "text-to-image", "{data: [{b64_json: string}]}");
      const base64 = (response as { data: Array<{ b64_json: string }> }).data[0]!.b64_json;
      return toMediaOutput({ kind: "base64", base64, type: options.mime ?? "image/jpeg" }, ctx, response);
    },
  };
}
