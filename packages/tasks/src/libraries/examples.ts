import { TEXT_TO_IMAGE_PROMPT, ZERO_SHOT_IMAGE_LABELS, ZERO_SHOT_TEXT_LABELS } from "../inputs/constants.js";
import type { ModelData } from "../model-data.js";

/**
 * Example inputs library snippets show. A model's own widget examples win (spec §3 widgetData); otherwise the
 * catalogue's defaults below are used.
 */

export const DEFAULT_TEXT = "The weather is lovely today, and I feel great.";
export const DEFAULT_CHAT_PROMPT = "Who are you?";
export const DEFAULT_IMAGE_PROMPT = TEXT_TO_IMAGE_PROMPT;
export const DEFAULT_ZERO_SHOT_LABELS = ZERO_SHOT_TEXT_LABELS;
export const DEFAULT_IMAGE_LABELS = ZERO_SHOT_IMAGE_LABELS;
export const DEFAULT_SENTENCES = [
  "The weather is lovely today.",
  "It's so sunny outside!",
  "He drove to the stadium.",
] as const;
export const EXAMPLE_IMAGE_URL =
  "https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/hub/parrots.png";
export const EXAMPLE_AUDIO_FILE = "sample.flac";

/** The first widget example text of the model, or `fallback`. */
export function exampleText(model: ModelData, fallback: string = DEFAULT_TEXT): string {
  const text = model.widgetData?.find((example) => typeof example.text === "string")?.text;
  return text !== undefined && text.length > 0 ? text : fallback;
}

/** Source sentence followed by the sentences to compare, from the widget example when it has both. */
export function exampleSentences(model: ModelData): string[] {
  const example = model.widgetData?.find(
    (e) => typeof e.source_sentence === "string" && Array.isArray(e.sentences),
  );
  if (example?.source_sentence && example.sentences && example.sentences.length > 0) {
    return [example.source_sentence, ...example.sentences.filter((s): s is string => typeof s === "string")];
  }
  return [...DEFAULT_SENTENCES];
}

/** The part of a model id after the owner ("acme/tiny-bert" -> "tiny-bert"). */
export function modelName(model: Pick<ModelData, "id">): string {
  const slash = model.id.indexOf("/");
  return slash === -1 ? model.id : model.id.slice(slash + 1);
}

/** The first base model named in the card, if any. */
export function baseModel(model: ModelData): string | undefined {
  const base = model.cardData?.base_model;
  const first = Array.isArray(base) ? base[0] : base;
  return typeof first === "string" && first.length > 0 ? first : undefined;
}
