/** Providers the client knows; the registry in providers/index.ts has one entry per id. */
/** A provider id: a key of the provider registry (providers/index.ts), the only list of providers. */
export type { InferenceProvider } from "./providers/index.js";

import type { InferenceProvider } from "./providers/index.js";
/** `"auto"`: the first live provider from the model's hub mapping. */
export type ProviderChoice = InferenceProvider | "auto";

export type { ImageOutputType, InferenceTask, JsonObject, Logger, RetryOptions } from "./base-types.js";

import type { JsonObject, Logger, RetryOptions } from "./base-types.js";

/** Options every call accepts (and `InferenceClient` defaults). */
export interface Options {
  hubUrl?: string;
  routerUrl?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** `false` disables every retry, including the 503 one. Default: retry. */
  retryOnError?: boolean;
  retry?: RetryOptions;
  /**
   * Per-attempt timeout in ms (until the response headers arrive); a timed-out attempt is aborted. Default:
   * 120000, after which the attempt is given up but not aborted (see http/attempt-watchdog.ts); 0 turns it off.
   */
  timeoutMs?: number;
  /** Overall budget of one call in ms, retries, polling and downloads included. Default: none. */
  totalTimeoutMs?: number;
  /** Deadline of one asynchronous job (queue / polling) in ms. Default 10 minutes. */
  jobDeadlineMs?: number;
  logger?: Logger;
  /** Sent as `X-HF-Bill-To`. */
  billTo?: string;
  /** Send cookies (`credentials: "include"`); otherwise no `credentials` field at all. */
  includeCredentials?: boolean;
  /** Replace a provider's own base URL for direct calls (e.g. a local simulator). */
  providerBaseUrls?: Partial<Record<InferenceProvider, string>>;
  /** How long hub model-id mappings stay cached, in ms (default 5 minutes). */
  mappingTtlMs?: number;
}

/** Fields that pick where a call goes; every task's args accept them. */
export interface BaseArgs {
  accessToken?: string;
  model?: string;
  provider?: ProviderChoice;
  endpointUrl?: string;
}

// ---------- chat (OpenAI chat/completions) ----------

export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean };
}

export type ChatResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; schema?: JsonObject; strict?: boolean } };

export interface ChatCompletionInput {
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  stop?: string | string[];
  n?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  tools?: ChatTool[];
  tool_choice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
  response_format?: ChatResponseFormat;
  stream_options?: { include_usage?: boolean };
  [extra: string]: unknown;
}

export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletionOutput {
  id: string;
  object?: string;
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: Array<{
    index: number;
    finish_reason: string | null;
    message: {
      role: string;
      content: string | null;
      tool_calls?: ChatToolCall[];
      reasoning_content?: string;
    };
    logprobs?: unknown;
  }>;
  usage: ChatCompletionUsage;
}

export interface ChatCompletionStreamOutput {
  id: string;
  object?: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    finish_reason?: string | null;
    delta: {
      role?: string;
      content?: string | null;
      tool_calls?: Array<Partial<ChatToolCall> & { index: number }>;
      reasoning_content?: string;
    };
  }>;
  /** Present on the last chunk when `stream_options.include_usage` is set. */
  usage?: ChatCompletionUsage | null;
}

// ---------- text generation ----------

export interface TextGenerationParameters {
  max_new_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  repetition_penalty?: number;
  stop?: string[];
  seed?: number;
  return_full_text?: boolean;
  do_sample?: boolean;
  [extra: string]: unknown;
}
export interface TextGenerationInput {
  inputs: string;
  parameters?: TextGenerationParameters;
}
export interface TextGenerationOutput {
  generated_text: string;
  details?: unknown;
}
export interface TextGenerationStreamOutput {
  index?: number;
  token: { id: number; text: string; logprob?: number; special: boolean };
  generated_text: string | null;
  details?: unknown;
}

// ---------- outputs of the other tasks (hub inference types) ----------

export interface ClassificationOutputElement {
  label: string;
  score: number;
}
export type TextClassificationOutput = ClassificationOutputElement[];
export type AudioClassificationOutput = ClassificationOutputElement[];
export type ImageClassificationOutput = ClassificationOutputElement[];
export type ZeroShotImageClassificationOutput = ClassificationOutputElement[];
/** One candidate label and its score, best first (today's API shape). */
export interface ZeroShotClassificationOutputElement {
  label: string;
  score: number;
}
export type ZeroShotClassificationOutput = ZeroShotClassificationOutputElement[];
export interface TokenClassificationOutputElement {
  entity_group?: string;
  entity?: string;
  score: number;
  word: string;
  start: number;
  end: number;
}
export type TokenClassificationOutput = TokenClassificationOutputElement[];
export interface FillMaskOutputElement {
  score: number;
  token: number;
  token_str: string;
  sequence: string;
}
export type FillMaskOutput = FillMaskOutputElement[];
export interface QuestionAnsweringOutput {
  answer: string;
  score: number;
  start: number;
  end: number;
}
export interface TableQuestionAnsweringOutput {
  answer: string;
  coordinates: number[][];
  cells: string[];
  aggregator?: string;
}
export interface SummarizationOutput {
  summary_text: string;
}
export interface TranslationOutput {
  translation_text: string;
}
/** One vector, or one per input, or per-token vectors: nested number arrays. */
export type FeatureExtractionOutput = number[] | number[][] | number[][][] | number[][][][];
export type SentenceSimilarityOutput = number[];
export interface AutomaticSpeechRecognitionOutput {
  text: string;
  chunks?: Array<{ text: string; timestamp: number[] }>;
}
export interface AudioToAudioOutputElement {
  label: string;
  blob: string;
  "content-type"?: string;
}
export type AudioToAudioOutput = AudioToAudioOutputElement[];
export interface ImageSegmentationOutputElement {
  label: string;
  mask: string;
  score?: number | null;
}
export type ImageSegmentationOutput = ImageSegmentationOutputElement[];
export interface ObjectDetectionOutputElement {
  label: string;
  score: number;
  box: { xmin: number; ymin: number; xmax: number; ymax: number };
}
export type ObjectDetectionOutput = ObjectDetectionOutputElement[];
export interface ImageToTextOutput {
  generated_text: string;
}
export interface DocumentQuestionAnsweringOutputElement {
  answer: string;
  score?: number;
  start?: number;
  end?: number;
}
export type DocumentQuestionAnsweringOutput = DocumentQuestionAnsweringOutputElement[];
export interface VisualQuestionAnsweringOutputElement {
  answer: string;
  score: number;
}
export type VisualQuestionAnsweringOutput = VisualQuestionAnsweringOutputElement[];
export type TabularOutput = number[];
