import type { ModelData } from "../model-data.js";
import { hasGgufFiles } from "./gguf-files.js";

/** Facts about a model record that decide which local apps can run it. */

export const isGgufModel = (model: ModelData): boolean => hasGgufFiles(model);

/** Chat and completion models; GGUF repositories often declare no task, and are usually these. */
export const isTextGenerationLike = (model: ModelData): boolean =>
  model.pipeline_tag === undefined ||
  model.pipeline_tag === "text-generation" ||
  model.pipeline_tag === "image-text-to-text";

export const isMlxModel = (model: ModelData): boolean =>
  model.library_name === "mlx" || model.tags.includes("mlx");

export const hasLlamafile = (model: ModelData): boolean =>
  model.siblings?.some((file) => file.rfilename.toLowerCase().endsWith(".llamafile")) ?? false;

const SERVER_QUANT_METHODS = new Set([
  "awq",
  "gptq",
  "aqlm",
  "marlin",
  "fp8",
  "compressed-tensors",
  "bitsandbytes",
]);

/** A transformers-format text or vision-language model that GPU servers such as vLLM and SGLang load. */
export function isServableLlm(model: ModelData): boolean {
  if (model.pipeline_tag !== "text-generation" && model.pipeline_tag !== "image-text-to-text") return false;
  const quantization = model.config?.quantization_config;
  const method =
    typeof quantization === "object" && quantization !== null
      ? (quantization as { quant_method?: unknown }).quant_method
      : undefined;
  return (
    model.library_name === "transformers" ||
    model.tags.includes("transformers") ||
    (typeof method === "string" && SERVER_QUANT_METHODS.has(method))
  );
}

export const isDiffusersImageModel = (model: ModelData): boolean =>
  model.library_name === "diffusers" &&
  (model.pipeline_tag === "text-to-image" || model.tags.includes("lora"));

/** Diffusers image weights in safetensors, which apps that import a diffusers folder read. */
export const isDiffusersSafetensorsImageModel = (model: ModelData): boolean =>
  isDiffusersImageModel(model) && model.tags.includes("safetensors");

/** Models published to run on AMD Ryzen AI NPUs (ONNX, hybrid or NPU-only). */
export const isRyzenAiModel = (model: ModelData): boolean =>
  model.tags.includes("ryzenai-hybrid") || model.tags.includes("ryzenai-npu");

/** The chat template, from the GGUF header or the tokenizer config (the first named one of a list). */
export function chatTemplateOf(model: ModelData): string | undefined {
  const fromGguf = model.gguf?.chat_template;
  if (typeof fromGguf === "string") return fromGguf;
  const fromTokenizer = model.config?.tokenizer_config?.chat_template;
  if (typeof fromTokenizer === "string") return fromTokenizer;
  if (Array.isArray(fromTokenizer)) {
    const first = fromTokenizer[0]?.template;
    return typeof first === "string" ? first : undefined;
  }
  return undefined;
}

/**
 * A local chat model that coding agents can drive: GGUF or MLX weights served on this machine, a chat
 * model, and a chat template that renders tool definitions (agents call tools on every turn).
 */
export const isLocalToolCallingModel = (model: ModelData): boolean =>
  (isGgufModel(model) || isMlxModel(model)) &&
  model.tags.includes("conversational") &&
  (chatTemplateOf(model)?.includes("tools") ?? false);
