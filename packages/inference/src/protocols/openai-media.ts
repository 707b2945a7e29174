import { isBlob } from "../encoding.js";
import type { ProtocolFactory, TaskSpec } from "../providers/types.js";
import type { FeatureExtractionOutput } from "../types.js";
import { expectShape, isArrayOf, isNumberTensor, isObject, isString } from "../validate.js";
import { toMediaOutput } from "./binary-media.js";
import { withInputEncoding } from "./input-encoding.js";
import { flatArgs } from "./request-args.js";
import { fillPath, option } from "./route-options.js";

/** OpenAI-style embeddings: `{input, model}` -> `data[].embedding`. Route option: `path`. */
export const openAiEmbeddings: ProtocolFactory<"openai-embeddings"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/embeddings");
  return {
    path: (ctx) => fillPath(path, ctx),
    body: ({ args, providerModelId }) => {
      return { ...flatArgs(args), input: args.inputs, model: providerModelId };
    },
    parse: (response): FeatureExtractionOutput => {
      const ok =
        isObject(response) && isArrayOf(response.data, (x) => isObject(x) && isNumberTensor(x.embedding));
      expectShape(response, ok, "feature-extraction", "{data: [{embedding: number[]}]}");
      return (response as { data: Array<{ embedding: number[] }> }).data.map((item) => item.embedding);
    },
  };
};

/**
 * OpenAI-style speech: `{...parameters, input, model}` -> the audio bytes (mp3 unless `response_format`
 * says otherwise). Route options: `path`; `voiceFor`, a default `voice` for provider model ids containing
 * a key (lower case), for providers that refuse a body without one (Together's Kokoro reads `af_*` voices).
 */
export const openAiSpeech: ProtocolFactory<"openai-speech"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/audio/speech");
  const voiceFor = Object.entries(route.voiceFor ?? {});
  return {
    path: (ctx) => fillPath(path, ctx),
    body: ({ args, providerModelId }) => {
      const id = providerModelId.toLowerCase();
      const voice = voiceFor.find(([key]) => id.includes(key))?.[1];
      const body: Record<string, unknown> = voice ? { voice } : {};
      return Object.assign(body, flatArgs(args), { input: args.inputs, model: providerModelId });
    },
    parse: (response, ctx) => {
      expectShape(response, isBlob(response), ctx.task, "audio bytes");
      return toMediaOutput({ kind: "blob", blob: response as Blob }, ctx, response);
    },
  };
};

/**
 * OpenAI-style image generation returning base64: `{...parameters, response_format, prompt, model}`
 * -> `data[0].b64_json`. Route options: `path`, `responseFormat` (Together says "base64").
 */
export const openAiImages: ProtocolFactory<"openai-images"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/images/generations");
  const responseFormat = option(route, "responseFormat", "b64_json");
  return {
    path: (ctx) => fillPath(path, ctx),
    body: ({ args, providerModelId }) => {
      return {
        ...flatArgs(args),
        response_format: responseFormat,
        prompt: args.inputs,
        model: providerModelId,
      };
    },
    parse: parseBase64Images,
  };
};

/** `{data: [{b64_json}]}` -> the first image. */
const parseBase64Images: TaskSpec["parse"] = (response, ctx) => {
  const data = isObject(response) ? response.data : undefined;
  const ok = isArrayOf(data, (x) => isObject(x) && isString(x.b64_json)) && data.length > 0;
  expectShape(response, ok, ctx.task, "{data: [{b64_json: string}]}");
  const base64 = (data as Array<{ b64_json: string }>)[0]!.b64_json;
  return toMediaOutput({ kind: "base64", base64, type: "image/jpeg" }, ctx, response);
};

/**
 * Together's image edits (docs.together.ai/docs/image-to-image): its images endpoint with the prompt from
 * `parameters` and the image as a data URL, in `image_url` for FLUX.1 Kontext models (the only field they
 * read) and in `reference_images` for the others (FLUX.2, Gemini images); `num_inference_steps` is its
 * `steps`. As huggingface_hub and @huggingface/inference send it. Route option: `path`.
 */
export const togetherImageEdit: ProtocolFactory<"together-image-edit"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/images/generations");
  return {
    path: (ctx) => fillPath(path, ctx),
    ...withInputEncoding(() => "data-url"),
    body: ({ args, providerModelId }) => {
      const { prompt, num_inference_steps: steps, ...rest } = flatArgs(args);
      const id = providerModelId.toLowerCase();
      const image =
        id.includes("kontext") && id.includes("flux.1")
          ? { image_url: args.inputs }
          : { reference_images: [args.inputs] };
      return {
        prompt: prompt ?? "",
        ...image,
        response_format: "base64",
        ...rest,
        ...(steps !== undefined ? { steps } : {}),
        model: providerModelId,
      };
    },
    parse: parseBase64Images,
  };
};

/** Hyperbolic's images: the model goes in `model_name`; the answer is `images[].image` (base64). */
export const hyperbolicImages: ProtocolFactory<"hyperbolic-images"> = (route): TaskSpec => {
  const path = option(route, "path", "/v1/images/generations");
  return {
    path: (ctx) => fillPath(path, ctx),
    body: ({ args, providerModelId }) => {
      return { ...flatArgs(args), prompt: args.inputs, model_name: providerModelId };
    },
    parse: (response, ctx) => {
      const images = isObject(response) ? response.images : undefined;
      const ok = isArrayOf(images, (x) => isObject(x) && isString(x.image)) && images.length > 0;
      expectShape(response, ok, "text-to-image", "{images: [{image: base64}]}");
      const base64 = (images as Array<{ image: string }>)[0]!.image;
      return toMediaOutput({ kind: "base64", base64, type: "image/jpeg" }, ctx, response);
    },
  };
};
