import type { PipelineType } from "./pipelines.js";

/** Per-library configuration sections a model repository may declare (spec §3). */
export interface ModelConfig {
  architectures?: string[];
  model_type?: string;
  adapter_transformers?: { adapter_name?: string; model_class?: string; model_name?: string };
  diffusers?: { _class_name?: string };
  keras_hub?: { tasks?: string[] };
  peft?: { base_model_name_or_path?: string; task_type?: string };
  sklearn?: { model?: { file?: string }; model_format?: string };
  speechbrain?: { speechbrain_interface?: string; vocoder_interface?: string; vocoder_model_id?: string };
  tokenizer_config?: {
    bos_token?: string | { content: string };
    eos_token?: string | { content: string };
    chat_template?: string | Array<{ name: string; template: string }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface TransformersInfo {
  /** e.g. "AutoModelForCausalLM" */
  auto_model: string;
  custom_class?: string;
  pipeline_tag?: PipelineType;
  /** e.g. "AutoTokenizer", "AutoProcessor" */
  processor?: string;
}

export interface WidgetExample {
  text?: string;
  source_sentence?: string;
  sentences?: string[];
  example_title?: string;
  [key: string]: unknown;
}

export interface CardData {
  base_model?: string | string[];
  instance_prompt?: string | null;
  license?: string;
  language?: string | string[];
  datasets?: string[];
  [key: string]: unknown;
}

export interface GgufInfo {
  total: number;
  architecture?: string;
  context_length?: number;
  chat_template?: string;
  bos_token?: string;
  eos_token?: string;
}

export interface SafetensorsInfo {
  parameters: Record<string, number>;
  total: number;
}

export interface RepoSibling {
  rfilename: string;
  size?: number;
}

/** A model record, as the hub stores it and as snippet generators read it. */
export interface ModelData {
  /** owner/name */
  id: string;
  tags: string[];
  pipeline_tag?: PipelineType;
  library_name?: string;
  config?: ModelConfig;
  cardData?: CardData;
  widgetData?: WidgetExample[];
  transformersInfo?: TransformersInfo;
  /** Files in the repository; local apps and GGUF quantization picks read these. */
  siblings?: RepoSibling[];
  gguf?: GgufInfo;
  safetensors?: SafetensorsInfo;
  downloads?: number;
  likes?: number;
  trendingScore?: number;
  private?: boolean;
  gated?: false | "auto" | "manual";
  createdAt?: string;
  lastModified?: string;
  /** Markdown model card (README), without front matter. */
  cardText?: string;
}

/** The tag that marks a model as a chat model. */
export const CONVERSATIONAL_TAG = "conversational";

export function isConversational(model: Pick<ModelData, "tags" | "pipeline_tag">): boolean {
  return (
    (model.pipeline_tag === "text-generation" || model.pipeline_tag === "image-text-to-text") &&
    model.tags.includes(CONVERSATIONAL_TAG)
  );
}
