/**
 * Coverage against the public generator (@huggingface/inference's snippets.getInferenceSnippets):
 *   - its cases: every (provider, task) pair of its provider table (lib/getProviderHelper.js' PROVIDERS),
 *     with a model of that task; chat pairs with a text and a vision chat model, streamed and not. A case
 *     it covers is one where it writes at least one snippet; we must write at least one too;
 *   - its own fixture inputs: the cases of huggingface.js' packages/tasks-gen/scripts/
 *     generate-snippets-fixtures.ts (test name, model, providers, options), counted in snippets.
 * Run alone: node --conditions=source --import tsx snippets/coverage.ts  (from bench/)
 */
import { snippets as hfSnippets } from "@huggingface/inference";
import { getInferenceSnippets } from "@modelhub/snippets";
import type { ModelData, PipelineType } from "@modelhub/tasks";
// Their provider table: not exported from the package's entry, read from its installed module.
import { PROVIDERS } from "../../node_modules/@huggingface/inference/dist/esm/lib/getProviderHelper.js";

export interface CoverageCase {
  name: string;
  model: ModelData;
  provider: string;
  /** The mapping's task (conversational for chat). */
  task: string;
  providerId: string;
  options: Record<string, unknown>;
  /** The public generator's own options where they differ from ours (accessToken, directRequest...). */
  theirOptions?: Record<string, unknown>;
  accessToken?: string;
}

const model = (id: string, pipeline_tag: PipelineType, tags: string[] = []): ModelData => ({
  id,
  pipeline_tag,
  tags,
});

const LLM = model("meta-llama/Llama-3.1-8B-Instruct", "text-generation", ["conversational"]);
const VLM = model("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text", ["conversational"]);

/** A model per task (the ones the exec tests run). */
export const TASK_MODELS: Record<string, ModelData> = {
  "audio-classification": model("superb/hubert-large-superb-er", "audio-classification"),
  "audio-to-audio": model("speechbrain/sepformer-wham", "audio-to-audio"),
  "automatic-speech-recognition": model("openai/whisper-large-v3", "automatic-speech-recognition"),
  "document-question-answering": model("impira/layoutlm-document-qa", "document-question-answering"),
  "feature-extraction": model("intfloat/multilingual-e5-large-instruct", "feature-extraction"),
  "fill-mask": model("google-bert/bert-base-uncased", "fill-mask"),
  "image-classification": model("google/vit-base-patch16-224", "image-classification"),
  "image-segmentation": model("facebook/detr-resnet-50-panoptic", "image-segmentation"),
  "image-text-to-image": model("Qwen/Qwen-Image-Edit", "image-text-to-image"),
  "image-text-to-video": model("Wan-AI/Wan2.2-TI2V-5B", "image-text-to-video"),
  "image-to-image": model("black-forest-labs/FLUX.1-Kontext-dev", "image-to-image"),
  "image-to-text": model("nlpconnect/vit-gpt2-image-captioning", "image-to-text"),
  "image-to-video": model("Wan-AI/Wan2.2-I2V-A14B", "image-to-video"),
  "object-detection": model("facebook/detr-resnet-50", "object-detection"),
  "question-answering": model("deepset/roberta-base-squad2", "question-answering"),
  "sentence-similarity": model("sentence-transformers/all-MiniLM-L6-v2", "sentence-similarity"),
  summarization: model("facebook/bart-large-cnn", "summarization"),
  "table-question-answering": model("google/tapas-base-finetuned-wtq", "table-question-answering"),
  "tabular-classification": model("templates/tabular-classification", "tabular-classification"),
  "tabular-regression": model("scikit-learn/Fish-Weight", "tabular-regression"),
  "text-classification": model(
    "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
    "text-classification",
  ),
  "text-generation": model("openai-community/gpt2", "text-generation"),
  "text-to-audio": model("facebook/musicgen-small", "text-to-audio"),
  "text-to-image": model("black-forest-labs/FLUX.1-dev", "text-to-image"),
  "text-to-speech": model("hexgrad/Kokoro-82M", "text-to-speech"),
  "text-to-video": model("Wan-AI/Wan2.1-T2V-14B", "text-to-video"),
  "token-classification": model("dslim/bert-base-NER", "token-classification"),
  translation: model("google-t5/t5-base", "translation"),
  "visual-question-answering": model("dandelin/vilt-b32-finetuned-vqa", "visual-question-answering"),
  "zero-shot-classification": model("facebook/bart-large-mnli", "zero-shot-classification"),
  "zero-shot-image-classification": model("openai/clip-vit-large-patch14", "zero-shot-image-classification"),
};

/** Every (provider, task) pair of the public generator's provider table, as cases. */
export function providerTableCases(): CoverageCase[] {
  const cases: CoverageCase[] = [];
  for (const [provider, tasks] of Object.entries(PROVIDERS as Record<string, Record<string, unknown>>)) {
    for (const task of Object.keys(tasks)) {
      const providerId = `${provider}-model-id`;
      if (task === "conversational") {
        for (const m of [LLM, VLM]) {
          for (const streaming of [false, true]) {
            const kind = m === LLM ? "chat" : "vision-chat";
            cases.push({
              name: `${provider} ${kind}${streaming ? " stream" : ""}`,
              model: m,
              provider,
              task,
              providerId,
              options: { streaming },
            });
          }
        }
        continue;
      }
      const m = TASK_MODELS[task];
      if (!m) throw new Error(`no model for the task ${task}: add one to TASK_MODELS`);
      cases.push({ name: `${provider} ${task}`, model: m, provider, task, providerId, options: {} });
    }
  }
  return cases;
}

const fixtureModel = (id: string, pipeline: PipelineType, tags: string[] = []) => model(id, pipeline, tags);

/** huggingface.js' generate-snippets-fixtures.ts TEST_CASES (test name, task, model, providers, options). */
const FIXTURE_INPUTS: Array<{
  name: string;
  task: string;
  model: ModelData;
  providers: string[];
  options?: Record<string, unknown>;
  lora?: boolean;
}> = [
  {
    name: "automatic-speech-recognition",
    task: "automatic-speech-recognition",
    model: fixtureModel("openai/whisper-large-v3-turbo", "automatic-speech-recognition"),
    providers: ["hf-inference"],
  },
  ...[false, true].flatMap((streaming) => [
    {
      name: `conversational-llm-${streaming ? "stream" : "non-stream"}`,
      task: "conversational",
      model: LLM,
      providers: ["hf-inference", "together", "auto"],
      options: { streaming },
    },
    {
      name: `conversational-vlm-${streaming ? "stream" : "non-stream"}`,
      task: "conversational",
      model: fixtureModel("meta-llama/Llama-3.2-11B-Vision-Instruct", "image-text-to-text", [
        "conversational",
      ]),
      providers: ["hf-inference", "fireworks-ai", "auto"],
      options: { streaming },
    },
  ]),
  {
    name: "conversational-llm-custom-endpoint",
    task: "conversational",
    model: LLM,
    providers: ["hf-inference"],
    options: { endpointUrl: "http://localhost:8080/v1" },
  },
  {
    name: "document-question-answering",
    task: "document-question-answering",
    model: fixtureModel("impira/layoutlm-invoices", "document-question-answering"),
    providers: ["hf-inference"],
  },
  {
    name: "image-classification",
    task: "image-classification",
    model: fixtureModel("Falconsai/nsfw_image_detection", "image-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "image-to-image",
    task: "image-to-image",
    model: fixtureModel("black-forest-labs/FLUX.1-Kontext-dev", "image-to-image"),
    providers: ["fal-ai", "replicate", "hf-inference"],
  },
  {
    name: "image-to-video",
    task: "image-to-video",
    model: fixtureModel("Wan-AI/Wan2.2-I2V-A14B", "image-to-video"),
    providers: ["fal-ai"],
  },
  {
    name: "tabular",
    task: "tabular-classification",
    model: fixtureModel("templates/tabular-classification", "tabular-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "text-to-audio-transformers",
    task: "text-to-audio",
    model: fixtureModel("facebook/musicgen-small", "text-to-audio", ["transformers"]),
    providers: ["hf-inference"],
  },
  {
    name: "text-to-image",
    task: "text-to-image",
    model: fixtureModel("black-forest-labs/FLUX.1-schnell", "text-to-image"),
    providers: ["hf-inference", "fal-ai"],
  },
  {
    name: "text-to-video",
    task: "text-to-video",
    model: fixtureModel("tencent/HunyuanVideo", "text-to-video"),
    providers: ["replicate", "fal-ai"],
  },
  {
    name: "text-classification",
    task: "text-classification",
    model: fixtureModel("distilbert/distilbert-base-uncased-finetuned-sst-2-english", "text-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "basic-snippet--token-classification",
    task: "token-classification",
    model: fixtureModel("FacebookAI/xlm-roberta-large-finetuned-conll03-english", "token-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "zero-shot-classification",
    task: "zero-shot-classification",
    model: fixtureModel("facebook/bart-large-mnli", "zero-shot-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "zero-shot-image-classification",
    task: "zero-shot-image-classification",
    model: fixtureModel("openai/clip-vit-large-patch14", "zero-shot-image-classification"),
    providers: ["hf-inference"],
  },
  {
    name: "text-to-image--lora",
    task: "text-to-image",
    model: fixtureModel("openfree/flux-chatgpt-ghibli-lora", "text-to-image", [
      "lora",
      "base_model:adapter:black-forest-labs/FLUX.1-dev",
      "base_model:black-forest-labs/FLUX.1-dev",
    ]),
    providers: ["fal-ai"],
    lora: true,
  },
  {
    name: "bill-to-param",
    task: "conversational",
    model: LLM,
    providers: ["hf-inference"],
    options: { billTo: "huggingface" },
  },
  {
    name: "with-access-token",
    task: "conversational",
    model: LLM,
    providers: ["hf-inference"],
    options: { accessToken: "hf_xxx" },
  },
  {
    name: "explicit-direct-request",
    task: "conversational",
    model: LLM,
    providers: ["together"],
    options: { directRequest: true },
  },
  {
    name: "text-to-speech",
    task: "text-to-speech",
    model: fixtureModel("nari-labs/Dia-1.6B", "text-to-speech"),
    providers: ["fal-ai"],
  },
  {
    name: "feature-extraction",
    task: "feature-extraction",
    model: fixtureModel("intfloat/multilingual-e5-large-instruct", "feature-extraction"),
    providers: ["hf-inference"],
  },
  {
    name: "question-answering",
    task: "question-answering",
    model: fixtureModel(
      "google-bert/bert-large-uncased-whole-word-masking-finetuned-squad",
      "question-answering",
    ),
    providers: ["hf-inference"],
  },
  {
    name: "table-question-answering",
    task: "table-question-answering",
    model: fixtureModel(
      "google-bert/bert-large-uncased-whole-word-masking-finetuned-squad",
      "table-question-answering",
    ),
    providers: ["hf-inference"],
  },
];

/** The fixture inputs as cases, one per (test, provider). */
export function fixtureCases(): CoverageCase[] {
  return FIXTURE_INPUTS.flatMap((input) =>
    input.providers.map((provider) => {
      const theirs = input.options ?? {};
      const { accessToken, directRequest, ...rest } = theirs as {
        accessToken?: string;
        directRequest?: boolean;
      };
      const options: Record<string, unknown> = { ...rest };
      // Ours: a given token is written into the code only when asked (their accessToken option does that).
      if (accessToken) options.inlineToken = true;
      if (directRequest) options.directRequest = true;
      if (provider === "auto") options.autoProvider = true;
      return {
        name: `${input.name} ${provider}`,
        model: input.model,
        provider,
        task: input.task,
        providerId:
          provider === "hf-inference" ? input.model.id : `<${provider} alias for ${input.model.id}>`,
        options,
        theirOptions: theirs,
        accessToken,
        lora: input.lora,
      };
    }),
  );
}

/** Ours: `auto` is a provider option, not a provider (the hub resolves it to one it serves). */
export function oursFor(c: CoverageCase) {
  const provider = c.provider === "auto" ? "hf-inference" : c.provider;
  return getInferenceSnippets(c.model, c.accessToken, provider as never, c.providerId, c.options as never);
}

export function theirsFor(c: CoverageCase & { lora?: boolean }) {
  const mapping: Record<string, unknown> = {
    provider: c.provider,
    hfModelId: c.model.id,
    providerId: c.providerId,
    status: "live",
    task: c.task,
  };
  if (c.lora) Object.assign(mapping, { adapter: "lora", adapterWeightsPath: "<path to LoRA weights>" });
  // Their generator logs to console.error when a provider does not serve a task: quiet while it runs.
  const error = console.error;
  console.error = () => {};
  try {
    return hfSnippets.getInferenceSnippets(
      c.model as never,
      c.provider as never,
      mapping as never,
      (c.theirOptions ?? c.options) as never,
    );
  } catch {
    // Some of its cases throw (DeepInfra's speech recognition wants a Blob it cannot have): no snippet.
    return [];
  } finally {
    console.error = error;
  }
}

export interface CoverageReport {
  covered: number;
  total: number;
  missing: string[];
  oursSnippets: number;
  theirsSnippets: number;
}

export function coverage(cases: CoverageCase[]): CoverageReport {
  const missing: string[] = [];
  let total = 0;
  let oursSnippets = 0;
  let theirsSnippets = 0;
  for (const c of cases) {
    const theirs = theirsFor(c).length;
    const ours = oursFor(c).length;
    theirsSnippets += theirs;
    oursSnippets += ours;
    if (theirs === 0) continue;
    total++;
    if (ours === 0) missing.push(c.name);
  }
  return { covered: total - missing.length, total, missing, oursSnippets, theirsSnippets };
}

if (process.argv[1]?.endsWith("coverage.ts")) {
  for (const [label, cases] of [
    ["provider table", providerTableCases()],
    ["fixture inputs", fixtureCases()],
  ] as const) {
    const report = coverage(cases);
    console.log(
      `${label}: ${report.covered}/${report.total} cases covered; snippets ours ${report.oursSnippets}, theirs ${report.theirsSnippets}`,
    );
    for (const name of report.missing) console.log(`  missing: ${name}`);
  }
}
