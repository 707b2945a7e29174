import type { ModelData } from "../model-data.js";
import { chooseQuant } from "./quant-choice.js";
import { encodePath, withQuery } from "./urls.js";

/** Links that open a model in a desktop app. Ids and paths are percent-encoded, never pasted raw. */

export const lmStudioLink = (model: ModelData, quantFilePath?: string): URL =>
  withQuery("lmstudio://open_from_hf", {
    model: model.id,
    file: quantFilePath === undefined ? undefined : chooseQuant(model, quantFilePath).file,
  });

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
