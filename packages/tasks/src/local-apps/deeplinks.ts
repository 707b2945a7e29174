import type { ModelData } from "../model-data.js";
import { isGgufModel } from "./model-traits.js";
import { chooseQuant } from "./quant-choice.js";
import { encodePath, withQuery } from "./urls.js";

/** Links that open a model in a desktop app. Ids and paths are percent-encoded, never pasted raw. */

/**
 * `scheme://open_from_hf?model=...&file=...`, the form several desktop apps share; `file` is the picked
 * quantization's first file (its first shard when split).
 */
function openFromHf(base: string, model: ModelData, quantFilePath?: string): URL {
  return withQuery(base, {
    model: model.id,
    file: quantFilePath === undefined ? undefined : chooseQuant(model, quantFilePath).file,
  });
}

export const lmStudioLink = (model: ModelData, quantFilePath?: string): URL =>
  openFromHf("lmstudio://open_from_hf", model, quantFilePath);

export const janLink = (model: ModelData): URL => new URL(`jan://models/huggingface/${encodePath(model.id)}`);

export const mstyLink = (model: ModelData): URL => new URL(`msty://models/search/hf/${encodePath(model.id)}`);

export const recurseChatLink = (model: ModelData): URL =>
  withQuery("recursechat://new-hf-gguf-model", { "hf-model-id": model.id });

export const drawThingsLink = (model: ModelData): URL =>
  withQuery(
    model.tags.includes("lora")
      ? "https://drawthings.ai/import/diffusers/pipeline.load_lora_weights"
      : "https://drawthings.ai/import/diffusers/pipeline.from_pretrained",
    { repo_id: model.id },
  );

export const diffusionBeeLink = (model: ModelData): URL =>
  withQuery("https://diffusionbee.com/huggingface_import", { model_id: model.id });

export const invokeLink = (model: ModelData): URL =>
  new URL(`https://models.invoke.ai/huggingface/${encodePath(model.id)}`);

export const unslothLink = (model: ModelData, quantFilePath?: string): URL =>
  openFromHf("unsloth://open_from_hf", model, quantFilePath);

export const sanctumLink = (model: ModelData, quantFilePath?: string): URL =>
  openFromHf("sanctum://open_from_hf", model, quantFilePath);

export const atomicChatLink = (model: ModelData): URL =>
  new URL(`atomic-chat://models/huggingface/${encodePath(model.id)}`);

export const backyardLink = (model: ModelData): URL =>
  new URL(`https://backyard.ai/hf/model/${encodePath(model.id)}`);

/** Jellybox sorts imports by kind: GGUF language models, image LoRAs, and image checkpoints. */
export function jellyboxLink(model: ModelData): URL {
  const kind = isGgufModel(model)
    ? "llm/models/huggingface/LLM"
    : model.tags.includes("lora")
      ? "image/models/huggingface/ImageLora"
      : "image/models/huggingface/Image";
  return new URL(`jellybox://${kind}/${encodePath(model.id)}`);
}

export const joyFusionLink = (model: ModelData): URL =>
  withQuery("https://joyfusion.app/import_from_hf", { repo_id: model.id });
