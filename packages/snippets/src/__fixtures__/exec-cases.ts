import type { ModelData, PipelineType } from "@modelhub/tasks";

/** One model served by one provider under the provider's own id. */
export interface ExecCase {
  model: ModelData;
  provider: string;
  providerId: string;
}

const model = (id: string, pipeline_tag: PipelineType, tags: string[] = []): ModelData => ({ id, pipeline_tag, tags });

export const CHAT_MODEL = model("meta-llama/Llama-3.1-8B-Instruct", "text-generation", ["conversational"]);
export const VISION_CHAT_MODEL = model("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text", ["conversational"]);

/** Chat: every provider that serves chat, with a realistic provider model id. */
export const CHAT_CASES: ExecCase[] = [
  ["hf-inference", "meta-llama/Llama-3.1-8B-Instruct"],
  ["together", "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo"],
  ["cerebras", "llama3.1-8b"],
  ["cohere", "command-r7b-12-2024"],
  ["fireworks-ai", "accounts/fireworks/models/llama-v3p1-8b-instruct"],
  ["hyperbolic", "meta-llama/Meta-Llama-3.1-8B-Instruct"],
  ["nebius", "meta-llama/Meta-Llama-3.1-8B-Instruct-fast"],
  ["novita", "meta-llama/llama-3.1-8b-instruct"],
  ["sambanova", "Meta-Llama-3.1-8B-Instruct"],
  ["groq", "llama-3.1-8b-instant"],
  ["featherless-ai", "meta-llama/Meta-Llama-3.1-8B-Instruct"],
  ["nscale", "meta-llama/Llama-3.1-8B-Instruct"],
  ["ovhcloud", "Llama-3.1-8B-Instruct"],
  ["scaleway", "llama-3.1-8b-instruct"],
  ["deepinfra", "meta-llama/Meta-Llama-3.1-8B-Instruct"],
  ["baseten", "meta-llama/Llama-3.1-8B-Instruct"],
  ["zai-org", "glm-4.5"],
  ["publicai", "swiss-ai/apertus-8b-instruct"],
].map(([provider, providerId]) => ({ model: CHAT_MODEL, provider: provider!, providerId: providerId! }));

/** Every task with a template, on the providers that serve it. */
export const TASK_CASES: ExecCase[] = [
  [model("distilbert/distilbert-base-uncased-finetuned-sst-2-english", "text-classification"), "hf-inference"],
  [model("dslim/bert-base-NER", "token-classification"), "hf-inference"],
  [model("deepset/roberta-base-squad2", "question-answering"), "hf-inference"],
  [model("google/tapas-base-finetuned-wtq", "table-question-answering"), "hf-inference"],
  [model("facebook/bart-large-mnli", "zero-shot-classification"), "hf-inference"],
  [model("google-t5/t5-base", "translation"), "hf-inference"],
  [model("facebook/bart-large-cnn", "summarization"), "hf-inference"],
  [model("facebook/bart-base", "feature-extraction"), "hf-inference"],
  [model("google-bert/bert-base-uncased", "fill-mask"), "hf-inference"],
  [model("sentence-transformers/all-MiniLM-L6-v2", "sentence-similarity"), "hf-inference"],
  [model("openai-community/gpt2", "text-generation"), "hf-inference"],
  [model("openai/whisper-large-v3", "automatic-speech-recognition"), "hf-inference"],
  [model("superb/hubert-large-superb-er", "audio-classification"), "hf-inference"],
  [model("google/vit-base-patch16-224", "image-classification"), "hf-inference"],
  [model("facebook/detr-resnet-50", "object-detection"), "hf-inference"],
  [model("facebook/detr-resnet-50-panoptic", "image-segmentation"), "hf-inference"],
  [model("nlpconnect/vit-gpt2-image-captioning", "image-to-text"), "hf-inference"],
  [model("openai/clip-vit-large-patch14", "zero-shot-image-classification"), "hf-inference"],
  [model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image"), "hf-inference"],
  [model("espnet/kan-bayashi_ljspeech_vits", "text-to-speech"), "hf-inference"],
  [model("timbrooks/instruct-pix2pix", "image-to-image"), "hf-inference"],
  [model("dandelin/vilt-b32-finetuned-vqa", "visual-question-answering"), "hf-inference"],
  [model("impira/layoutlm-document-qa", "document-question-answering"), "hf-inference"],
  [model("scikit-learn/Fish-Weight", "tabular-regression"), "hf-inference"],
  [model("black-forest-labs/FLUX.1-dev", "text-to-image"), "fal-ai", "fal-ai/flux/dev"],
  [model("black-forest-labs/FLUX.1-dev", "text-to-image"), "replicate", "black-forest-labs/flux-dev"],
  [
    model("openai/whisper-large-v3", "automatic-speech-recognition"),
    "replicate",
    "openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e",
  ],
  [model("black-forest-labs/FLUX.1-dev", "text-to-image"), "together", "black-forest-labs/FLUX.1-dev"],
  [model("black-forest-labs/FLUX.1-dev", "text-to-image"), "nebius", "black-forest-labs/flux-dev"],
  [model("black-forest-labs/FLUX.1-dev", "text-to-image"), "black-forest-labs", "flux-dev"],
  [model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image"), "hyperbolic", "SDXL1.0-base"],
  [model("zai-org/CogView4-6B", "text-to-image"), "zai-org", "cogview-4-250304"],
  [model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"), "fal-ai", "fal-ai/wan-t2v"],
  [model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"), "replicate", "wavespeedai/wan-2.1-t2v-480p"],
  [model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"), "novita", "wan-t2v"],
  // fal's queue (image editing with a prompt, video from an image and a prompt): the file as a data URL.
  [model("black-forest-labs/FLUX.1-Kontext-dev", "image-text-to-image"), "fal-ai", "fal-ai/flux-kontext/dev"],
  [model("Wan-AI/Wan2.2-TI2V-5B", "image-text-to-video"), "fal-ai", "fal-ai/wan/v2.2-5b/image-to-video"],
  [model("openai/whisper-large-v3", "automatic-speech-recognition"), "fal-ai", "fal-ai/whisper"],
  [model("stabilityai/stable-audio-open-1.0", "text-to-audio"), "fal-ai", "fal-ai/stable-audio"],
  // fal's Kokoro reads `prompt`, its Dia `text` (what the hub clients send).
  [model("hexgrad/Kokoro-82M", "text-to-speech"), "fal-ai", "fal-ai/kokoro/american-english"],
  [model("nari-labs/Dia-1.6B", "text-to-speech"), "fal-ai", "fal-ai/dia-tts"],
  [model("mistralai/Mistral-7B-v0.1", "text-generation"), "together", "mistralai/Mistral-7B-v0.1"],
  [model("BAAI/bge-base-en-v1.5", "feature-extraction"), "together", "BAAI/bge-base-en-v1.5"],
  [model("hexgrad/Kokoro-82M", "text-to-speech"), "together", "hexgrad/Kokoro-82M"],
  [model("hexgrad/Kokoro-82M", "text-to-speech"), "deepinfra", "hexgrad/Kokoro-82M"],
  // Groq serves a prompt through its chat endpoint (one user message).
  [model("openai/gpt-oss-20b", "text-generation"), "groq", "openai/gpt-oss-20b"],
  // fal's queue for the hub's audio-to-audio and segmentation outputs (the mask inline in sync mode).
  [model("speechbrain/sepformer-wham", "audio-to-audio"), "fal-ai", "fal-ai/elevenlabs/audio-isolation"],
  [model("ZhengPeng7/BiRefNet", "image-segmentation"), "fal-ai", "fal-ai/birefnet"],
  // Together's image edits and its video jobs (/v2/videos).
  [model("black-forest-labs/FLUX.1-Kontext-dev", "image-to-image"), "together", "black-forest-labs/FLUX.1-kontext-dev"],
  [model("Wan-AI/Wan2.2-T2V-A14B", "text-to-video"), "together", "Wan-AI/Wan2.2-T2V-A14B"],
  [model("Wan-AI/Wan2.2-I2V-A14B", "image-to-video"), "together", "Wan-AI/Wan2.2-I2V-A14B"],
  // WaveSpeed's jobs: every task it serves (raw HTTP follows the prediction to its output).
  [model("Wan-AI/Wan2.2-T2V-A14B", "text-to-video"), "wavespeed", "wavespeed-ai/wan-2.2/t2v-480p"],
  [model("Qwen/Qwen-Image-Edit", "image-text-to-image"), "wavespeed", "wavespeed-ai/qwen-image/edit"],
  [model("Wan-AI/Wan2.2-TI2V-5B", "image-text-to-video"), "wavespeed", "wavespeed-ai/wan-2.2/ti2v-5b-720p"],
  [model("Qwen/Qwen-Image", "text-to-image"), "wavespeed", "wavespeed-ai/qwen-image/text-to-image"],
  [model("Wan-AI/Wan2.2-I2V-A14B", "image-to-video"), "wavespeed", "wavespeed-ai/wan-2.2/i2v-480p"],
  [model("timbrooks/instruct-pix2pix", "image-to-image"), "wavespeed", "wavespeed-ai/flux-kontext-dev"],
  // Z.ai's layout parsing (image to text): huggingface.js sends the file as a data URL in `file`.
  [model("zai-org/GLM-OCR", "image-to-text"), "zai-org", "glm-ocr"],
].map(([m, provider, providerId]) => ({
  model: m as ModelData,
  provider: provider as string,
  providerId: (providerId as string | undefined) ?? (m as ModelData).id,
}));
