import type { ModelData } from "../../model-data.js";
import { LIBRARY_TASK_MAPPING } from "../library-to-tasks.js";

/**
 * Representative model records per library: a plain one for every library, plus the variants that make a
 * library's snippet take another branch (task, tags, config sections, files).
 */

type Variant = Partial<ModelData> & { name: string };

const CHAT_TEMPLATE = "{% for m in messages %}{{ m.content }}{% endfor %}";

/** Records that drive each branch of the libraries whose snippets depend on the record. */
export const LIBRARY_VARIANTS: Readonly<Record<string, readonly Variant[]>> = {
  transformers: [
    {
      name: "text-generation",
      pipeline_tag: "text-generation",
      transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
      widgetData: [{ text: "My name is Julien and I like to" }],
    },
    {
      name: "conversational",
      pipeline_tag: "text-generation",
      tags: ["transformers", "conversational"],
      transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
      config: { tokenizer_config: { chat_template: CHAT_TEMPLATE } },
    },
    {
      name: "custom-code",
      pipeline_tag: "text-classification",
      tags: ["transformers", "custom_code"],
      transformersInfo: { auto_model: "AutoModelForSequenceClassification", processor: "AutoTokenizer" },
      widgetData: [{ text: "I like you. I love you" }],
    },
    {
      name: "vision-language",
      pipeline_tag: "image-text-to-text",
      tags: ["transformers", "conversational", "image-text-to-text"],
      transformersInfo: { auto_model: "AutoModelForImageTextToText", processor: "AutoProcessor" },
      config: { tokenizer_config: { chat_template: CHAT_TEMPLATE } },
    },
    {
      name: "fill-mask",
      pipeline_tag: "fill-mask",
      transformersInfo: { auto_model: "AutoModelForMaskedLM", processor: "AutoTokenizer" },
    },
    {
      name: "question-answering",
      pipeline_tag: "question-answering",
      transformersInfo: { auto_model: "AutoModelForQuestionAnswering", processor: "AutoTokenizer" },
      widgetData: [{ text: "Where do I live?", context: "My name is Sarah and I live in London" }],
    },
    {
      name: "zero-shot",
      pipeline_tag: "zero-shot-classification",
      transformersInfo: { auto_model: "AutoModelForSequenceClassification", processor: "AutoTokenizer" },
    },
    {
      name: "speech-recognition",
      pipeline_tag: "automatic-speech-recognition",
      transformersInfo: { auto_model: "AutoModelForSpeechSeq2Seq", processor: "AutoProcessor" },
    },
    {
      name: "table-qa",
      pipeline_tag: "table-question-answering",
      transformersInfo: { auto_model: "AutoModelForTableQuestionAnswering", processor: "AutoTokenizer" },
    },
    { name: "no-processor", pipeline_tag: "feature-extraction", transformersInfo: { auto_model: "AutoModel" } },
    { name: "unknown-type", pipeline_tag: "text-generation" },
  ],
  peft: [
    { name: "causal-lm", config: { peft: { base_model_name_or_path: "facebook/opt-350m", task_type: "CAUSAL_LM" } } },
    { name: "seq2seq", config: { peft: { base_model_name_or_path: "google/flan-t5-base", task_type: "SEQ_2_SEQ_LM" } } },
    { name: "token-cls", config: { peft: { base_model_name_or_path: "bert-base-cased", task_type: "TOKEN_CLS" } } },
    { name: "seq-cls", config: { peft: { base_model_name_or_path: "roberta-base", task_type: "SEQ_CLS" } } },
    { name: "invalid-task", config: { peft: { base_model_name_or_path: "facebook/opt-350m", task_type: "FEATURE_EXTRACTION" } } },
    { name: "no-base-model", config: { peft: { task_type: "CAUSAL_LM" } } },
  ],
  sklearn: [
    {
      name: "skops-file",
      tags: ["sklearn", "skops"],
      config: { sklearn: { model: { file: "skops-model.skops" }, model_format: "skops" } },
    },
    {
      name: "pickle-file",
      tags: ["sklearn", "skops"],
      config: { sklearn: { model: { file: "sklearn_model.joblib" }, model_format: "pickle" } },
    },
    { name: "no-file", tags: ["sklearn", "skops"], config: { sklearn: { model_format: "skops" } } },
    { name: "plain-joblib", tags: ["sklearn"] },
  ],
  speechbrain: [
    { name: "with-interface", config: { speechbrain: { speechbrain_interface: "EncoderASR" } } },
    { name: "speaker", config: { speechbrain: { speechbrain_interface: "SpeakerRecognition" } } },
    { name: "unknown-interface", config: { speechbrain: { speechbrain_interface: "SomethingElse" } } },
    { name: "no-interface" },
  ],
  "keras-hub": [
    { name: "tasks", config: { keras_hub: { tasks: ["TextClassifier", "MaskedLM", "CausalLM"] } } },
    { name: "no-tasks" },
  ],
  "adapter-transformers": [
    { name: "with-base", config: { adapter_transformers: { model_name: "roberta-base", adapter_name: "imdb" } } },
    { name: "no-base" },
  ],
  diffusers: [
    { name: "text-to-image", pipeline_tag: "text-to-image", widgetData: [{ text: "A cat wearing a hat" }] },
    {
      name: "lora",
      pipeline_tag: "text-to-image",
      tags: ["diffusers", "lora", "template:sd-lora"],
      cardData: { base_model: "stabilityai/stable-diffusion-xl-base-1.0", instance_prompt: "a photo of TOK dog" },
    },
    { name: "lora-no-base", pipeline_tag: "text-to-image", tags: ["diffusers", "lora"] },
    {
      name: "lora-image-to-video",
      pipeline_tag: "image-to-video",
      tags: ["diffusers", "lora"],
      cardData: { base_model: ["Wan-AI/Wan2.1-I2V-14B-480P-Diffusers"] },
    },
    { name: "image-to-image", pipeline_tag: "image-to-image" },
    { name: "text-to-video", pipeline_tag: "text-to-video" },
    { name: "controlnet", tags: ["diffusers", "controlnet"], cardData: { base_model: "runwayml/stable-diffusion-v1-5" } },
    {
      name: "textual-inversion",
      tags: ["diffusers", "textual_inversion"],
      cardData: { base_model: "runwayml/stable-diffusion-v1-5" },
    },
  ],
  "sentence-transformers": [
    {
      name: "widget-sentences",
      pipeline_tag: "sentence-similarity",
      widgetData: [{ source_sentence: "That is a happy person", sentences: ["That is a happy dog", "Today is sunny"] }],
    },
    { name: "cross-encoder", pipeline_tag: "text-ranking", tags: ["sentence-transformers", "cross-encoder"] },
    { name: "custom-code", tags: ["sentence-transformers", "custom_code"] },
  ],
  "transformers.js": [{ name: "with-task", pipeline_tag: "text-classification" }, { name: "no-task" }],
  mlx: [
    { name: "chat", pipeline_tag: "text-generation", tags: ["mlx", "conversational"] },
    { name: "text-generation", pipeline_tag: "text-generation" },
    { name: "vision-language", pipeline_tag: "image-text-to-text" },
    { name: "other" },
  ],
  "llama-cpp-python": [
    {
      name: "chat-with-files",
      pipeline_tag: "text-generation",
      tags: ["gguf", "conversational"],
      siblings: [{ rfilename: "model-Q8_0.gguf" }, { rfilename: "model-Q4_K_M.gguf" }],
    },
    { name: "completion", pipeline_tag: "text-generation" },
  ],
  gguf: [{ name: "files", siblings: [{ rfilename: "Llama-3.2-3B-Instruct-IQ3_M.gguf" }] }],
  ultralytics: [{ name: "yolov8", tags: ["ultralytics", "yolov8"] }],
  audiocraft: [{ name: "musicgen", tags: ["audiocraft", "musicgen"] }, { name: "magnet", tags: ["audiocraft", "magnet"] }],
  espnet: [
    { name: "tts", pipeline_tag: "text-to-speech" },
    { name: "asr", pipeline_tag: "automatic-speech-recognition" },
  ],
  nemo: [{ name: "asr", pipeline_tag: "automatic-speech-recognition" }],
  "pyannote-audio": [{ name: "pipeline", tags: ["pyannote-audio", "pyannote-audio-pipeline"] }],
  PaddleOCR: [{ name: "detection", tags: ["PaddleOCR", "textline_detection"] }],
  paddlenlp: [{ name: "architecture", config: { architectures: ["ErnieForMaskedLM"] } }],
  tensorflowtts: [{ name: "text-to-mel", tags: ["tensorflowtts", "text-to-mel"] }],
  "lightning-ir": [{ name: "cross-encoder", tags: ["lightning-ir", "cross-encoder"] }],
  flair: [{ name: "classifier", pipeline_tag: "text-classification" }],
  allennlp: [{ name: "qa", pipeline_tag: "question-answering" }],
  moshi: [{ name: "mlx", id: "kyutai/moshiko-mlx-q4" }],
  cleanrl: [{ name: "named", id: "cleanrl/CartPole-v1-dqn_jax-seed1" }],
  "stable-baselines3": [
    { name: "zip", siblings: [{ rfilename: "ppo-LunarLander-v2.zip" }] },
    { name: "contrib", siblings: [{ rfilename: "tqc-PandaReach-v3.zip" }] },
  ],
  "perception-encoder": [{ name: "core", id: "facebook/PE-Core-L14-336" }],
  "depth-anything-v2": [{ name: "small", id: "depth-anything/Depth-Anything-V2-Small" }],
  wan: [{ name: "t2v", id: "Wan-AI/Wan2.1-T2V-1.3B" }],
  "wan2.2": [{ name: "ti2v", id: "Wan-AI/Wan2.2-TI2V-5B" }],
  tabpfn: [{ name: "regressor", id: "Prior-Labs/TabPFN-v2-reg" }],
  seamless_communication: [{ name: "m4t-v2", id: "facebook/seamless-m4t-v2-large" }],
  videox_fun: [{ name: "wan2.1-fun", id: "alibaba-pai/Wan2.1-Fun-1.3B-InP" }],
  terratorch: [{ name: "prithvi", id: "ibm-nasa-geospatial/Prithvi-EO-2.0-300M-TL" }],
  sapiens: [
    {
      name: "torchscript",
      id: "facebook/sapiens-seg-1b-torchscript",
      siblings: [{ rfilename: "sapiens_1b_seg_torchscript.pt2" }],
    },
  ],
  recurrentgemma: [{ name: "pytorch", siblings: [{ rfilename: "2b-it.pt" }, { rfilename: "tokenizer.model" }] }],
  seedvr: [{ name: "seedvr2-3b", id: "ByteDance-Seed/SeedVR2-3B" }],
  monkeyocr: [
    { name: "pro-1.2b", id: "echo840/MonkeyOCR-pro-1.2B" },
    { name: "base", id: "echo840/MonkeyOCR" },
  ],
  lerobot: [{ name: "act", pipeline_tag: "robotics", tags: ["lerobot", "act", "robotics"] }],
  coreml: [{ name: "package", siblings: [{ rfilename: "Model.mlpackage/Manifest.json" }] }],
  diffusionkit: [{ name: "flux", tags: ["diffusionkit", "flux"] }],
  ctranslate2: [{ name: "whisper", pipeline_tag: "automatic-speech-recognition" }],
  vllm: [{ name: "chat", pipeline_tag: "text-generation", tags: ["vllm", "conversational"] }],
};

function slug(library: string): string {
  return library.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** The plain record of a library: its own tag, its first served task, a short example text. */
export function baseRecord(library: string): ModelData {
  const task = LIBRARY_TASK_MAPPING[library]?.[0];
  return {
    id: `acme/${slug(library)}-demo`,
    tags: [library],
    library_name: library,
    ...(task ? { pipeline_tag: task as ModelData["pipeline_tag"] } : {}),
  };
}

export interface RecordCase {
  /** "<library>/<variant>" */
  name: string;
  model: ModelData;
}

/** Every record a library's snippets are checked with: the plain one and its variants. */
export function recordsFor(library: string): RecordCase[] {
  const base = baseRecord(library);
  const cases: RecordCase[] = [{ name: `${library}/plain`, model: base }];
  for (const { name, ...overrides } of LIBRARY_VARIANTS[library] ?? []) {
    cases.push({ name: `${library}/${name}`, model: { ...base, ...overrides, library_name: library } });
  }
  return cases;
}

/** A marker appended to every text field of a hostile record; removing it gives the benign value back. */
export const HOSTILE_SUFFIX = "\"'\\$(touch /tmp/pwned)`id`${HOME};\n# \u2028ünï 日本 🤗 */ -->\\";

function hostileText(value: string): string {
  return `${value}${HOSTILE_SUFFIX}`;
}

/**
 * The same record with the marker appended to every free-text field it already has (id, example texts,
 * base models, file names from config). Fields that choose a branch (tags, task, class names) are kept,
 * so benign and hostile snippets must have the same structure.
 */
export function withHostileTexts(model: ModelData): ModelData {
  const out: ModelData = structuredClone(model);
  out.id = hostileText(model.id);
  out.widgetData = model.widgetData?.map((example) => ({
    ...example,
    ...(typeof example.text === "string" ? { text: hostileText(example.text) } : {}),
    ...(typeof example.context === "string" ? { context: hostileText(example.context) } : {}),
    ...(typeof example.source_sentence === "string" ? { source_sentence: hostileText(example.source_sentence) } : {}),
    ...(Array.isArray(example.sentences) ? { sentences: example.sentences.map(hostileText) } : {}),
  }));
  if (out.cardData) {
    const base = model.cardData?.base_model;
    if (typeof base === "string") out.cardData.base_model = hostileText(base);
    if (Array.isArray(base)) out.cardData.base_model = base.map(hostileText);
    if (typeof model.cardData?.instance_prompt === "string") {
      out.cardData.instance_prompt = hostileText(model.cardData.instance_prompt);
    }
  }
  const config = out.config;
  if (config?.adapter_transformers?.model_name) {
    config.adapter_transformers.model_name = hostileText(config.adapter_transformers.model_name);
  }
  if (config?.peft?.base_model_name_or_path) {
    config.peft.base_model_name_or_path = hostileText(config.peft.base_model_name_or_path);
  }
  if (config?.sklearn?.model?.file) config.sklearn.model.file = hostileText(config.sklearn.model.file);
  return out;
}

/** Every string field hostile, including class names, tasks and file names: only for "it still compiles". */
export function withEverythingHostile(model: ModelData, text: string): ModelData {
  const out = withHostileTexts(model);
  out.id = text;
  if (out.transformersInfo) out.transformersInfo = { auto_model: text, processor: text };
  if (out.config?.speechbrain) out.config.speechbrain.speechbrain_interface = text;
  if (out.config?.keras_hub) out.config.keras_hub.tasks = [text, "CausalLM"];
  if (out.config?.architectures) out.config.architectures = [text];
  if (out.config?.peft) out.config.peft.task_type = text;
  out.siblings = [{ rfilename: `${text}.gguf` }, { rfilename: `${text}.zip` }, { rfilename: `${text}.onnx` }];
  out.cardData = { ...out.cardData, base_model: text, instance_prompt: text };
  out.widgetData = [{ text, source_sentence: text, sentences: [text, text], context: text }];
  return out;
}
