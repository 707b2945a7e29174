/**
 * The fixed calls of the golden files (goldens.test.ts), also the calls bench/snippets times both
 * generators on: one list, so the benchmark measures what the goldens show.
 */
import type { InferenceProvider } from "@modelhub/inference";
import type { ModelData, PipelineType } from "@modelhub/tasks";
import type { SnippetOptions } from "../types.js";

export interface GoldenCase {
  /** File name (without .md) under __goldens__/. */
  name: string;
  model: ModelData;
  provider: InferenceProvider;
  providerModelId?: string;
  accessToken?: string;
  options?: SnippetOptions;
}

const model = (id: string, pipeline_tag: PipelineType, tags: string[] = []): ModelData => ({
  id,
  pipeline_tag,
  tags,
});

const CHAT = model("meta-llama/Llama-3.1-8B-Instruct", "text-generation", ["conversational"]);
const VISION_CHAT = model("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text", ["conversational"]);
const FLUX = model("black-forest-labs/FLUX.1-dev", "text-to-image");
const TOGETHER_LLAMA = "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo";
/** Sampling options where 0 must still be shown (spec §9). */
const SAMPLING: SnippetOptions = { temperature: 0, top_p: 0.9 };

const chat = (
  name: string,
  provider: InferenceProvider,
  providerModelId: string,
  options: SnippetOptions = {},
  accessToken?: string,
): GoldenCase => ({ name, model: CHAT, provider, providerModelId, accessToken, options });

const task = (
  name: string,
  m: ModelData,
  provider: InferenceProvider = "hf-inference",
  providerModelId?: string,
) => ({
  name,
  model: m,
  provider,
  providerModelId,
});

export const GOLDEN_CASES: GoldenCase[] = [
  chat("chat-together", "together", TOGETHER_LLAMA, SAMPLING),
  chat("chat-together-stream", "together", TOGETHER_LLAMA, { ...SAMPLING, streaming: true }),
  chat("chat-hf-inference", "hf-inference", CHAT.id, SAMPLING),
  chat("chat-hf-inference-stream", "hf-inference", CHAT.id, { ...SAMPLING, streaming: true }),
  chat("chat-cohere", "cohere", "command-r7b-12-2024", SAMPLING),
  chat("chat-cohere-stream", "cohere", "command-r7b-12-2024", { ...SAMPLING, streaming: true }),
  chat("chat-self-hosted-hub", "together", TOGETHER_LLAMA, {
    hubUrl: "http://localhost:8080",
    routerUrl: "http://localhost:8080/router",
  }),
  chat("chat-inline-token", "together", TOGETHER_LLAMA, { inlineToken: true }, "hf_goldenTestToken123"),
  chat("chat-direct-provider-key", "together", TOGETHER_LLAMA, {}, "tgp_v1_goldenTestKey"),
  chat("chat-bill-to", "together", TOGETHER_LLAMA, { billTo: "acme-research" }),
  { name: "vision-chat-hf-inference", model: VISION_CHAT, provider: "hf-inference", options: {} },
  task(
    "text-classification",
    model("distilbert/distilbert-base-uncased-finetuned-sst-2-english", "text-classification"),
  ),
  task("question-answering", model("deepset/roberta-base-squad2", "question-answering")),
  task("zero-shot-classification", model("facebook/bart-large-mnli", "zero-shot-classification")),
  task("automatic-speech-recognition", model("openai/whisper-large-v3", "automatic-speech-recognition")),
  task("image-classification", model("google/vit-base-patch16-224", "image-classification")),
  task("text-to-image-hf-inference", model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image")),
  task("text-to-speech", model("espnet/kan-bayashi_ljspeech_vits", "text-to-speech")),
  task("sentence-similarity", model("sentence-transformers/all-MiniLM-L6-v2", "sentence-similarity")),
  task("visual-question-answering", model("dandelin/vilt-b32-finetuned-vqa", "visual-question-answering")),
  task("text-to-image-fal-ai", FLUX, "fal-ai", "fal-ai/flux/dev"),
  task("text-to-image-replicate", FLUX, "replicate", "black-forest-labs/flux-dev"),
  task("text-to-image-together", FLUX, "together", "black-forest-labs/FLUX.1-dev"),
  task("text-to-video-fal-ai", model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"), "fal-ai", "fal-ai/wan-t2v"),
];
