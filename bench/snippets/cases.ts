/**
 * The calls both generators are timed on: the same models, providers and options as the golden files of
 * packages/snippets, expressed once and handed to each library in its own call shape.
 */

export interface BenchModel {
  id: string;
  pipeline_tag: string;
  tags: string[];
}

export interface BenchCase {
  name: string;
  model: BenchModel;
  provider: string;
  providerModelId: string;
  accessToken?: string;
  streaming?: boolean;
  temperature?: number;
  top_p?: number;
  billTo?: string;
  inlineToken?: boolean;
  hubUrl?: string;
  routerUrl?: string;
}

const model = (id: string, pipeline_tag: string, tags: string[] = []): BenchModel => ({
  id,
  pipeline_tag,
  tags,
});

const CHAT = model("meta-llama/Llama-3.1-8B-Instruct", "text-generation", ["conversational"]);
const VISION_CHAT = model("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text", ["conversational"]);
const FLUX = model("black-forest-labs/FLUX.1-dev", "text-to-image");
const TOGETHER_LLAMA = "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo";
const COHERE = "command-r7b-12-2024";
const SAMPLING = { temperature: 0, top_p: 0.9 };

const onHf = (name: string, m: BenchModel): BenchCase => ({
  name,
  model: m,
  provider: "hf-inference",
  providerModelId: m.id,
});

export const CASES: BenchCase[] = [
  { name: "chat-together", model: CHAT, provider: "together", providerModelId: TOGETHER_LLAMA, ...SAMPLING },
  {
    name: "chat-together-stream",
    model: CHAT,
    provider: "together",
    providerModelId: TOGETHER_LLAMA,
    streaming: true,
    ...SAMPLING,
  },
  { name: "chat-hf-inference", model: CHAT, provider: "hf-inference", providerModelId: CHAT.id, ...SAMPLING },
  {
    name: "chat-hf-inference-stream",
    model: CHAT,
    provider: "hf-inference",
    providerModelId: CHAT.id,
    streaming: true,
    ...SAMPLING,
  },
  { name: "chat-cohere", model: CHAT, provider: "cohere", providerModelId: COHERE, ...SAMPLING },
  {
    name: "chat-cohere-stream",
    model: CHAT,
    provider: "cohere",
    providerModelId: COHERE,
    streaming: true,
    ...SAMPLING,
  },
  {
    name: "chat-self-hosted-hub",
    model: CHAT,
    provider: "together",
    providerModelId: TOGETHER_LLAMA,
    hubUrl: "http://localhost:8080",
    routerUrl: "http://localhost:8080/router",
  },
  {
    name: "chat-inline-token",
    model: CHAT,
    provider: "together",
    providerModelId: TOGETHER_LLAMA,
    accessToken: "hf_benchToken123",
    inlineToken: true,
  },
  {
    name: "chat-direct-provider-key",
    model: CHAT,
    provider: "together",
    providerModelId: TOGETHER_LLAMA,
    accessToken: "tgp_v1_benchKey",
  },
  {
    name: "chat-bill-to",
    model: CHAT,
    provider: "together",
    providerModelId: TOGETHER_LLAMA,
    billTo: "acme-research",
  },
  {
    name: "vision-chat-hf-inference",
    model: VISION_CHAT,
    provider: "hf-inference",
    providerModelId: VISION_CHAT.id,
  },
  onHf(
    "text-classification",
    model("distilbert/distilbert-base-uncased-finetuned-sst-2-english", "text-classification"),
  ),
  onHf("question-answering", model("deepset/roberta-base-squad2", "question-answering")),
  onHf("zero-shot-classification", model("facebook/bart-large-mnli", "zero-shot-classification")),
  onHf("automatic-speech-recognition", model("openai/whisper-large-v3", "automatic-speech-recognition")),
  onHf("image-classification", model("google/vit-base-patch16-224", "image-classification")),
  onHf("text-to-image-hf-inference", model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image")),
  onHf("text-to-speech", model("espnet/kan-bayashi_ljspeech_vits", "text-to-speech")),
  onHf("sentence-similarity", model("sentence-transformers/all-MiniLM-L6-v2", "sentence-similarity")),
  onHf("visual-question-answering", model("dandelin/vilt-b32-finetuned-vqa", "visual-question-answering")),
  { name: "text-to-image-fal-ai", model: FLUX, provider: "fal-ai", providerModelId: "fal-ai/flux/dev" },
  {
    name: "text-to-image-replicate",
    model: FLUX,
    provider: "replicate",
    providerModelId: "black-forest-labs/flux-dev",
  },
  { name: "text-to-image-together", model: FLUX, provider: "together", providerModelId: FLUX.id },
  {
    name: "text-to-video-fal-ai",
    model: model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"),
    provider: "fal-ai",
    providerModelId: "fal-ai/wan-t2v",
  },
];

/** A generator under test: one call per case, returning the number of snippets produced. */
export type Generate = (c: BenchCase) => number;

/** Arguments for @modelhub/snippets' getInferenceSnippets(model, accessToken, provider, providerModelId, options). */
export function oursArgs(c: BenchCase) {
  const options: Record<string, unknown> = {};
  for (const key of [
    "streaming",
    "temperature",
    "top_p",
    "billTo",
    "inlineToken",
    "hubUrl",
    "routerUrl",
  ] as const) {
    if (c[key] !== undefined) options[key] = c[key];
  }
  return [c.model, c.accessToken, c.provider, c.providerModelId, options] as const;
}

/**
 * Arguments for @huggingface/inference's snippets.getInferenceSnippets(model, provider, mapping, opts).
 * It has no self-hosted hub option (those cases render its defaults); a non-hf_ key is a direct request.
 */
export function theirsArgs(c: BenchCase) {
  const mapping = {
    hfModelId: c.model.id,
    provider: c.provider,
    providerId: c.providerModelId,
    status: "live",
    task: c.model.tags.includes("conversational") ? "conversational" : c.model.pipeline_tag,
  };
  const opts: Record<string, unknown> = {};
  for (const key of ["streaming", "temperature", "top_p", "billTo"] as const) {
    if (c[key] !== undefined) opts[key] = c[key];
  }
  if (c.accessToken && c.inlineToken) opts.accessToken = c.accessToken;
  if (c.accessToken && !c.accessToken.startsWith("hf_")) opts.directRequest = true;
  return [c.model, c.provider, mapping, opts] as const;
}
