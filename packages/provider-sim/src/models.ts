/**
 * The models the sim knows: which pipeline each serves on hf-inference and how the hub maps it to each
 * provider's own model id. Seeded from the recorded traffic; callers add or replace entries through
 * `startProviderSim({ models })`.
 */

export type MappingStatus = "live" | "staging";

export interface ProviderMapping {
  status: MappingStatus;
  providerId: string;
  /** The hub task the mapping serves (`conversational` for chat). */
  task: string;
  /** `"lora"`: the model is an adapter applied to a base model (fal-ai). */
  adapter?: string;
  /** The adapter's weights file in the model's repository. */
  adapterWeightsPath?: string;
}

export interface SimModel {
  /** Hub model id, `owner/name` (or a legacy bare name such as `gpt2`). */
  id: string;
  pipeline_tag: string;
  tags?: string[];
  /** Provider name -> mapping. hf-inference is implied for every model unless `hfInference: false`. */
  inferenceProviderMapping?: Record<string, ProviderMapping>;
  hfInference?: boolean;
}

const live = (providerId: string, task: string): ProviderMapping => ({ status: "live", providerId, task });

const HF_INFERENCE_MODELS: ReadonlyArray<[string, string]> = [
  ["distilbert-base-uncased-finetuned-sst-2-english", "text-classification"],
  ["google/tapas-base-finetuned-wtq", "table-question-answering"],
  ["gpt2", "text-generation"],
  ["openai-community/gpt2", "text-generation"],
  ["google-bert/bert-base-uncased", "fill-mask"],
  ["bert-base-uncased", "fill-mask"],
  ["distilbert-base-uncased", "fill-mask"],
  ["google/flan-t5-xxl", "text-generation"],
  ["dbmdz/bert-large-cased-finetuned-conll03-english", "token-classification"],
  ["deepset/roberta-base-squad2", "question-answering"],
  ["t5-base", "translation"],
  ["microsoft/DialoGPT-large", "text-generation"],
  ["facebook/bart-large-mnli", "zero-shot-classification"],
  ["sentence-transformers/paraphrase-xlm-r-multilingual-v1", "sentence-similarity"],
  ["sentence-transformers/distilbert-base-nli-mean-tokens", "feature-extraction"],
  ["google/vit-base-patch16-224", "image-classification"],
  ["facebook/wav2vec2-large-960h-lv60-self", "automatic-speech-recognition"],
  ["superb/hubert-large-superb-er", "audio-classification"],
  ["stabilityai/stable-diffusion-2", "text-to-image"],
  ["facebook/detr-resnet-50", "object-detection"],
  ["facebook/bart-large-cnn", "summarization"],
  ["google/pegasus-xsum", "summarization"],
  ["facebook/detr-resnet-50-panoptic", "image-segmentation"],
  ["nlpconnect/vit-gpt2-image-captioning", "image-to-text"],
  ["impira/layoutlm-document-qa", "document-question-answering"],
  ["naver-clova-ix/donut-base-finetuned-docvqa", "document-question-answering"],
  ["dandelin/vilt-b32-finetuned-vqa", "visual-question-answering"],
  ["espnet/kan-bayashi_ljspeech_vits", "text-to-speech"],
  ["scikit-learn/Fish-Weight", "tabular-regression"],
  ["vvmnnnkv/wine-quality", "tabular-classification"],
  ["lllyasviel/sd-controlnet-canny", "image-to-image"],
  ["lllyasviel/sd-controlnet-depth", "image-to-image"],
  ["facebook/bart-base", "feature-extraction"],
  ["OpenAssistant/oasst-sft-4-pythia-12b-epoch-3.5", "text-generation"],
  ["speechbrain/sepformer-wham", "audio-to-audio"],
  ["openai/clip-vit-large-patch14-336", "zero-shot-image-classification"],
  ["meta-llama/Llama-2-7b-hf", "text-generation"],
  ["meta-llama/Llama-3.2-3B", "text-generation"],
  ["google/gemma-2b", "text-generation"],
];

/** Chat models served by hf-inference (TGI) as well as by the recorded third-party providers. */
const CHAT_MODELS: SimModel[] = [
  {
    id: "mistralai/Mistral-7B-Instruct-v0.2",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
  },
  { id: "HuggingFaceH4/zephyr-7b-beta", pipeline_tag: "text-generation", tags: ["conversational"] },
  {
    id: "meta-llama/Llama-3.3-70B-Instruct",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    inferenceProviderMapping: {
      together: live("meta-llama/Llama-3.3-70B-Instruct-Turbo", "conversational"),
      hyperbolic: live("meta-llama/Llama-3.3-70B-Instruct", "conversational"),
      groq: live("llama-3.3-70b-versatile", "conversational"),
      "featherless-ai": live("meta-llama/Llama-3.3-70B-Instruct", "conversational"),
      nscale: live("meta-llama/Llama-3.3-70B-Instruct", "conversational"),
      ovhcloud: live("Meta-Llama-3_3-70B-Instruct", "conversational"),
      scaleway: live("llama-3.3-70b-instruct", "conversational"),
      deepinfra: live("meta-llama/Llama-3.3-70B-Instruct", "conversational"),
      baseten: live("meta-llama/Llama-3.3-70B-Instruct", "conversational"),
    },
  },
  {
    id: "meta-llama/Llama-3.1-8B-Instruct",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    inferenceProviderMapping: {
      sambanova: live("Meta-Llama-3.1-8B-Instruct", "conversational"),
      novita: live("meta-llama/llama-3.1-8b-instruct", "conversational"),
      cerebras: live("llama3.1-8b", "conversational"),
      nebius: live("meta-llama/Meta-Llama-3.1-8B-Instruct", "conversational"),
      "fireworks-ai": live("accounts/fireworks/models/llama-v3p1-8b-instruct", "conversational"),
      publicai: live("meta-llama/Llama-3.1-8B-Instruct", "conversational"),
    },
  },
  {
    id: "meta-llama/Llama-3.1-70B-Instruct",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    inferenceProviderMapping: { nebius: live("meta-llama/Meta-Llama-3.1-70B-Instruct", "conversational") },
  },
  {
    id: "meta-llama/Llama-3.2-3B-Instruct",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    inferenceProviderMapping: { hyperbolic: live("meta-llama/Llama-3.2-3B-Instruct", "conversational") },
  },
  {
    id: "meta-llama/Llama-3.1-405B-Instruct",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    inferenceProviderMapping: {
      hyperbolic: live("meta-llama/Meta-Llama-3.1-405B-Instruct", "conversational"),
    },
  },
  {
    id: "deepseek-ai/DeepSeek-R1",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    hfInference: false,
    inferenceProviderMapping: {
      "fireworks-ai": live("accounts/fireworks/models/deepseek-r1", "conversational"),
      together: live("deepseek-ai/DeepSeek-R1", "conversational"),
      novita: live("deepseek/deepseek-r1", "conversational"),
    },
  },
  {
    id: "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    hfInference: false,
    inferenceProviderMapping: {
      novita: live("deepseek/deepseek-r1-distill-qwen-14b", "conversational"),
    },
  },
  {
    id: "CohereForAI/c4ai-command-r7b-12-2024",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    hfInference: false,
    inferenceProviderMapping: { cohere: live("command-r7b-12-2024", "conversational") },
  },
  {
    id: "openai/gpt-oss-120b",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    hfInference: false,
    inferenceProviderMapping: {
      groq: live("openai/gpt-oss-120b", "conversational"),
      cerebras: live("gpt-oss-120b", "conversational"),
    },
  },
  {
    id: "zai-org/GLM-4.5",
    pipeline_tag: "text-generation",
    tags: ["conversational"],
    hfInference: false,
    inferenceProviderMapping: { "zai-org": live("glm-4.5", "conversational") },
  },
  {
    id: "mistralai/Mixtral-8x7B-v0.1",
    pipeline_tag: "text-generation",
    inferenceProviderMapping: { together: live("mistralai/Mixtral-8x7B-v0.1", "text-generation") },
  },
  {
    id: "intfloat/multilingual-e5-large",
    pipeline_tag: "feature-extraction",
    inferenceProviderMapping: {
      sambanova: live("E5-Mistral-7B-Instruct", "feature-extraction"),
      nebius: live("BAAI/bge-en-icl", "feature-extraction"),
    },
  },
];

const MEDIA_MODELS: SimModel[] = [
  {
    id: "black-forest-labs/FLUX.1-schnell",
    pipeline_tag: "text-to-image",
    inferenceProviderMapping: {
      "fal-ai": live("fal-ai/flux/schnell", "text-to-image"),
      replicate: live("black-forest-labs/flux-schnell", "text-to-image"),
      nebius: live("black-forest-labs/flux-schnell", "text-to-image"),
      together: live("black-forest-labs/FLUX.1-schnell", "text-to-image"),
      nscale: live("black-forest-labs/FLUX.1-schnell", "text-to-image"),
    },
  },
  {
    id: "black-forest-labs/FLUX.1-dev",
    pipeline_tag: "text-to-image",
    inferenceProviderMapping: {
      "black-forest-labs": live("flux-dev", "text-to-image"),
      "fal-ai": live("fal-ai/flux/dev", "text-to-image"),
      replicate: live("black-forest-labs/flux-dev", "text-to-image"),
    },
  },
  {
    id: "stabilityai/stable-diffusion-xl-base-1.0",
    pipeline_tag: "text-to-image",
    inferenceProviderMapping: {
      together: live("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image"),
      hyperbolic: live("SDXL1.0-base", "text-to-image"),
      "fal-ai": live("fal-ai/fast-sdxl", "text-to-image"),
    },
  },
  {
    id: "ByteDance/SDXL-Lightning",
    pipeline_tag: "text-to-image",
    hfInference: false,
    inferenceProviderMapping: {
      replicate: live(
        "bytedance/sdxl-lightning-4step:5599ed30703defd1d160a25a63321b4dec97101d98b4674bcc56e41f62f35637",
        "text-to-image",
      ),
      "fal-ai": live("fal-ai/lightning-models", "text-to-image"),
    },
  },
  {
    id: "openai/whisper-large-v3",
    pipeline_tag: "automatic-speech-recognition",
    inferenceProviderMapping: { "fal-ai": live("fal-ai/whisper", "automatic-speech-recognition") },
  },
  {
    id: "hexgrad/Kokoro-82M",
    pipeline_tag: "text-to-speech",
    hfInference: false,
    inferenceProviderMapping: {
      replicate: live(
        "jaaari/kokoro-82m:dfdf537ba482b029e0a761699e6f55e9162cfd159270bfe0e44857caa5f275a6",
        "text-to-speech",
      ),
      "fal-ai": live("fal-ai/kokoro/american-english", "text-to-speech"),
    },
  },
  {
    id: "genmo/mochi-1-preview",
    pipeline_tag: "text-to-video",
    hfInference: false,
    inferenceProviderMapping: {
      "fal-ai": live("fal-ai/mochi-v1", "text-to-video"),
      replicate: live("genmoai/mochi-1", "text-to-video"),
      novita: live("wan-t2v", "text-to-video"),
    },
  },
  {
    id: "Wan-AI/Wan2.1-I2V-14B-720P",
    pipeline_tag: "image-to-video",
    hfInference: false,
    inferenceProviderMapping: {
      "fal-ai": live("fal-ai/wan-i2v", "image-to-video"),
      wavespeed: live("wavespeed-ai/wan-2.1/i2v-720p", "image-to-video"),
    },
  },
  {
    id: "Wan-AI/Wan2.1-T2V-14B",
    pipeline_tag: "text-to-video",
    hfInference: false,
    inferenceProviderMapping: { wavespeed: live("wavespeed-ai/wan-2.1/t2v-720p", "text-to-video") },
  },
  {
    id: "black-forest-labs/FLUX.1-Kontext-dev",
    pipeline_tag: "image-to-image",
    hfInference: false,
    inferenceProviderMapping: {
      "fal-ai": live("fal-ai/flux-kontext/dev", "image-to-image"),
      wavespeed: live("wavespeed-ai/flux-kontext-dev", "image-to-image"),
      replicate: live("black-forest-labs/flux-kontext-dev", "image-to-image"),
    },
  },
];

/** The models every sim serves unless replaced through options. */
export function defaultModels(): SimModel[] {
  return [
    ...HF_INFERENCE_MODELS.map(([id, pipeline_tag]) => ({ id, pipeline_tag })),
    ...CHAT_MODELS,
    ...MEDIA_MODELS,
  ];
}

/** The sim's live registry: read by hf-inference (pipeline by model) and by the fake hub API (mappings). */
export class ModelRegistry {
  readonly #models = new Map<string, SimModel>();

  constructor(models: Iterable<SimModel>) {
    for (const model of models) this.set(model);
  }

  /** Adds or replaces a model. */
  set(model: SimModel): void {
    this.#models.set(model.id, model);
  }

  /** Removes a model: the hub then answers 404 for it and hf-inference "does not exist". */
  delete(id: string): boolean {
    return this.#models.delete(id);
  }

  get(id: string): SimModel | undefined {
    return this.#models.get(id);
  }

  list(): SimModel[] {
    return [...this.#models.values()];
  }

  /** The mapping the hub publishes, hf-inference included when the model runs there. */
  mappingsOf(model: SimModel): Record<string, ProviderMapping> {
    const mappings: Record<string, ProviderMapping> = {};
    if (model.hfInference !== false) {
      const chat = model.tags?.includes("conversational") && model.pipeline_tag === "text-generation";
      mappings["hf-inference"] = live(model.id, chat ? "conversational" : model.pipeline_tag);
    }
    return { ...mappings, ...model.inferenceProviderMapping };
  }

  /** The first model a provider serves for a task, for task defaults. */
  firstFor(task: string): SimModel | undefined {
    return this.list().find((model) => model.pipeline_tag === task);
  }
}
