import type { ModelData } from "@modelhub/tasks";

export interface NamedTemplate {
  name: string;
  template: string;
}

/**
 * The chat templates a model declares: its tokenizer config's `chat_template` (a string or a list of
 * named templates, as transformers allows), else the one embedded in its GGUF file.
 */
export function chatTemplatesOf(model: Pick<ModelData, "config" | "gguf">): NamedTemplate[] {
  const declared = model.config?.tokenizer_config?.chat_template;
  if (typeof declared === "string" && declared.trim()) return [{ name: "default", template: declared }];
  if (Array.isArray(declared)) {
    return declared.filter((entry) => typeof entry?.template === "string" && typeof entry.name === "string");
  }
  if (model.gguf?.chat_template) return [{ name: "default", template: model.gguf.chat_template }];
  return [];
}

export function hasChatTemplate(model: Pick<ModelData, "config" | "gguf">): boolean {
  return chatTemplatesOf(model).length > 0;
}

/** A special token as tokenizer configs store it: a string or `{content}`. */
export function tokenText(token: string | { content: string } | undefined): string {
  if (token === undefined) return "";
  return typeof token === "string" ? token : token.content;
}
