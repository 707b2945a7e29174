import { isPipelineType, type PipelineType, type TransformersInfo } from "@modelhub/tasks";

/**
 * What the public hub calls `transformersInfo`, read from a transformers repository's files: the auto class
 * that loads it, its processor and its task. The model page's loading code needs it; without it a user's
 * repository with `library_name: transformers` would get "the type of this model is unknown".
 */

/** An architecture's class-name suffix, the auto class that loads such a model, and its usual task. */
const ARCHITECTURE_SUFFIXES: ReadonlyArray<
  [suffix: string, autoModel: string, task: PipelineType | undefined]
> = [
  ["ForCausalLM", "AutoModelForCausalLM", "text-generation"],
  ["LMHeadModel", "AutoModelForCausalLM", "text-generation"],
  ["ForMaskedLM", "AutoModelForMaskedLM", "fill-mask"],
  ["ForSequenceClassification", "AutoModelForSequenceClassification", "text-classification"],
  ["ForTokenClassification", "AutoModelForTokenClassification", "token-classification"],
  ["ForQuestionAnswering", "AutoModelForQuestionAnswering", "question-answering"],
  ["ForImageClassification", "AutoModelForImageClassification", "image-classification"],
  ["ForObjectDetection", "AutoModelForObjectDetection", "object-detection"],
  ["ForSemanticSegmentation", "AutoModelForSemanticSegmentation", "image-segmentation"],
  ["ForDepthEstimation", "AutoModelForDepthEstimation", "depth-estimation"],
  ["ForAudioClassification", "AutoModelForAudioClassification", "audio-classification"],
  ["ForCTC", "AutoModelForCTC", "automatic-speech-recognition"],
  ["ForSpeechSeq2Seq", "AutoModelForSpeechSeq2Seq", "automatic-speech-recognition"],
  ["ForImageTextToText", "AutoModelForImageTextToText", "image-text-to-text"],
  ["ForVision2Seq", "AutoModelForImageTextToText", "image-text-to-text"],
  // Seq2seq text models, but also some speech and vision ones: the class alone does not tell the task.
  ["ForConditionalGeneration", "AutoModelForSeq2SeqLM", undefined],
  ["Model", "AutoModel", "feature-extraction"],
];

/** The auto class for a card's task when the config names no architecture. */
const TASK_AUTO_MODELS: Partial<Record<PipelineType, string>> = Object.fromEntries(
  ARCHITECTURE_SUFFIXES.flatMap(([suffix, autoModel, task]) =>
    task === undefined || suffix === "LMHeadModel" ? [] : [[task, autoModel]],
  ),
);

const TOKENIZER_FILES = [
  "tokenizer.json",
  "tokenizer_config.json",
  "tokenizer.model",
  "vocab.txt",
  "vocab.json",
];
const PREPROCESSOR_FILES = ["preprocessor_config.json", "processor_config.json"];

function processorOf(paths: ReadonlySet<string>): string | undefined {
  const tokenizer = TOKENIZER_FILES.some((file) => paths.has(file));
  const preprocessor = PREPROCESSOR_FILES.some((file) => paths.has(file));
  if (tokenizer && preprocessor) return "AutoProcessor";
  if (tokenizer) return "AutoTokenizer";
  if (paths.has("preprocessor_config.json")) return "AutoImageProcessor";
  return undefined;
}

const stringValue = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * The transformers info of a repository: from `config.json`'s `auto_map` (custom code) or first
 * architecture, else from the card's task, else the plain `AutoModel`. Undefined when the repository has
 * no config.json and its card does not say `library_name: transformers`: nothing says it is one.
 */
export function deriveTransformersInfo(input: {
  config: Record<string, unknown> | undefined;
  libraryName: string | undefined;
  cardPipelineTag: string | undefined;
  paths: readonly string[];
}): TransformersInfo | undefined {
  const { config } = input;
  const architectures: unknown = config?.architectures;
  const architecture = stringValue(Array.isArray(architectures) ? architectures[0] : undefined);
  if (input.libraryName !== "transformers" && (input.libraryName !== undefined || !architecture))
    return undefined;
  const processor = processorOf(new Set(input.paths));
  const cardTask = isPipelineType(input.cardPipelineTag) ? input.cardPipelineTag : undefined;
  const info = (
    autoModel: string,
    task: PipelineType | undefined,
    customClass?: string,
  ): TransformersInfo => ({
    auto_model: autoModel,
    ...(customClass ? { custom_class: customClass } : {}),
    ...(task ? { pipeline_tag: task } : {}),
    ...(processor ? { processor } : {}),
  });

  const autoMap = config?.auto_map;
  if (autoMap && typeof autoMap === "object" && !Array.isArray(autoMap)) {
    const entries = Object.entries(autoMap as Record<string, unknown>).filter(
      ([name]) => name.startsWith("AutoModel") && name !== "AutoModel",
    );
    const [name, target] = entries[0] ?? ["AutoModel", (autoMap as Record<string, unknown>).AutoModel];
    const customClass = stringValue(Array.isArray(target) ? target[0] : target);
    if (customClass) return info(name, cardTask, customClass.slice(customClass.lastIndexOf(".") + 1));
  }
  if (architecture) {
    const match = ARCHITECTURE_SUFFIXES.find(([suffix]) => architecture.endsWith(suffix));
    if (match) return info(match[1], cardTask ?? match[2]);
  }
  const taskAutoModel = cardTask ? TASK_AUTO_MODELS[cardTask] : undefined;
  return info(taskAutoModel ?? "AutoModel", cardTask);
}
