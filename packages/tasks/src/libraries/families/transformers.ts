import { isConversational, type ModelData } from "../../model-data.js";
import type { PipelineType } from "../../pipelines.js";
import {
  DEFAULT_CHAT_PROMPT,
  DEFAULT_IMAGE_LABELS,
  DEFAULT_ZERO_SHOT_LABELS,
  EXAMPLE_AUDIO_FILE,
  EXAMPLE_IMAGE_URL,
  exampleText,
} from "../examples.js";
import { libraryServesTask } from "../library-to-tasks.js";
import { MESSAGE_TITLE, UNKNOWN_MODEL_TYPE } from "../messages.js";
import { type Code, comment, joinCode, py, pythonIdentifier } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** The tag a repository carries when its modeling code lives in the repository itself. */
export const CUSTOM_CODE_TAG = "custom_code";

const VISION_CHAT_IMAGE_URL =
  "https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/p-blog/candy.JPG";
const VISION_CHAT_PROMPT = "What animal is on the candy?";

/** `, trust_remote_code=True` for repositories that ship their own modeling code. */
function remoteCodeArg(model: ModelData): Code<"python"> {
  return model.tags.includes(CUSTOM_CODE_TAG) ? py`, trust_remote_code=True` : py``;
}

function isVisionLanguage(model: ModelData): boolean {
  return model.pipeline_tag === "image-text-to-text" || model.tags.includes("image-text-to-text");
}

/** The chat messages a conversational model is shown with: text only, or an image and a question. */
function chatMessages(model: ModelData): Code<"python"> {
  if (isVisionLanguage(model)) {
    return py`messages = [
    {
        "role": "user",
        "content": [
            {"type": "image", "url": ${VISION_CHAT_IMAGE_URL}},
            {"type": "text", "text": ${exampleText(model, VISION_CHAT_PROMPT)}},
        ],
    },
]`;
  }
  return py`messages = [
    {"role": "user", "content": ${exampleText(model, DEFAULT_CHAT_PROMPT)}},
]`;
}

/** The call that runs a pipeline of `task` on an example input, or undefined when none fits. */
function pipelineCall(model: ModelData, task: PipelineType): Code<"python"> | undefined {
  const text = exampleText(model);
  switch (task) {
    case "text-generation":
      return isConversational(model) ? py`${chatMessages(model)}\npipe(messages)` : py`pipe(${text})`;
    case "image-text-to-text":
      return isConversational(model)
        ? py`${chatMessages(model)}\npipe(text=messages)`
        : py`pipe(images=${VISION_CHAT_IMAGE_URL}, text=${exampleText(model, VISION_CHAT_PROMPT)})`;
    case "text-classification":
    case "token-classification":
    case "summarization":
    case "translation":
    case "feature-extraction":
    case "text-to-speech":
    case "text-to-audio":
      return py`pipe(${text})`;
    case "fill-mask":
      return model.widgetData?.some((w) => typeof w.text === "string")
        ? py`pipe(${text})`
        : py`pipe(f"Paris is the {pipe.tokenizer.mask_token} of France.")`;
    case "question-answering": {
      const context = model.widgetData?.[0]?.context;
      return py`pipe(question=${exampleText(model, "Where do I live?")}, context=${typeof context === "string" ? context : "My name is Wolfgang and I live in Berlin."})`;
    }
    case "zero-shot-classification":
      return py`pipe(${text}, candidate_labels=${[...DEFAULT_ZERO_SHOT_LABELS]})`;
    case "zero-shot-image-classification":
    case "zero-shot-object-detection":
      return py`pipe(${EXAMPLE_IMAGE_URL}, candidate_labels=${[...DEFAULT_IMAGE_LABELS]})`;
    case "image-classification":
    case "object-detection":
    case "image-segmentation":
    case "depth-estimation":
    case "image-to-text":
    case "image-to-image":
    case "image-feature-extraction":
    case "mask-generation":
      return py`pipe(${EXAMPLE_IMAGE_URL})`;
    case "audio-classification":
    case "automatic-speech-recognition":
      return py`pipe(${EXAMPLE_AUDIO_FILE})`;
    case "visual-question-answering":
      return py`pipe(image=${EXAMPLE_IMAGE_URL}, question=${exampleText(model, "What animals are in the picture?")})`;
    case "document-question-answering":
      return py`pipe(image=${EXAMPLE_IMAGE_URL}, question=${exampleText(model, "What is the invoice number?")})`;
    case "table-question-answering":
      return py`table = {"Repository": ["transformers", "datasets", "tokenizers"], "Stars": ["36542", "4512", "3934"]}
pipe(table=table, query=${exampleText(model, "How many stars does the transformers repository have?")})`;
    case "video-classification":
      return py`pipe("video.mp4")`;
    default:
      return undefined;
  }
}

function pipelineSnippet(model: ModelData, task: PipelineType): LibrarySnippet {
  const call = pipelineCall(model, task);
  const lines = [
    comment("python", "Use a pipeline as a high-level helper"),
    py`from transformers import pipeline`,
    py``,
    py`pipe = pipeline(${task}, model=${model.id}${remoteCodeArg(model)})`,
  ];
  if (call) lines.push(call);
  return snippet(joinCode("python", lines), "Use a pipeline");
}

/** Variable name for a processor class, as the transformers docs name them. */
function processorVariable(processor: string): string {
  if (processor === "AutoTokenizer") return "tokenizer";
  if (processor === "AutoFeatureExtractor") return "feature_extractor";
  if (processor === "AutoImageProcessor") return "image_processor";
  return "processor";
}

function directLoadSnippet(model: ModelData): LibrarySnippet {
  const info = model.transformersInfo!;
  const autoModel = pythonIdentifier(info.auto_model, "AutoModel");
  const remote = remoteCodeArg(model);
  const lines: Code<"python">[] = [comment("python", "Load the model directly")];
  if (info.processor) {
    const processor = pythonIdentifier(info.processor, "AutoProcessor");
    const variable = pythonIdentifier(processorVariable(processor.text), "processor");
    lines.push(
      py`from transformers import ${processor}, ${autoModel}`,
      py``,
      py`${variable} = ${processor}.from_pretrained(${model.id}${remote})`,
      py`model = ${autoModel}.from_pretrained(${model.id}${remote})`,
    );
    if (isConversational(model)) {
      lines.push(
        py``,
        chatMessages(model),
        py`inputs = ${variable}.apply_chat_template(
    messages,
    add_generation_prompt=True,
    tokenize=True,
    return_dict=True,
    return_tensors="pt",
).to(model.device)

outputs = model.generate(**inputs, max_new_tokens=40)
print(${variable}.decode(outputs[0][inputs["input_ids"].shape[-1]:]))`,
      );
    }
  } else {
    lines.push(
      py`from transformers import ${autoModel}`,
      py``,
      py`model = ${autoModel}.from_pretrained(${model.id}${remote}, dtype="auto")`,
    );
  }
  return snippet(joinCode("python", lines), "Load the model directly");
}

/** transformers: a pipeline call when the task is served, and direct loading with the auto classes. */
export function transformersSnippets(model: ModelData): LibrarySnippet[] {
  if (!model.transformersInfo) return [snippet(comment("python", UNKNOWN_MODEL_TYPE), MESSAGE_TITLE)];
  const out: LibrarySnippet[] = [];
  if (model.pipeline_tag && libraryServesTask("transformers", model.pipeline_tag)) {
    out.push(pipelineSnippet(model, model.pipeline_tag));
  }
  out.push(directLoadSnippet(model));
  return out;
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const TRANSFORMERS_LIBRARIES = {
  transformers: {
    prettyLabel: "Transformers",
    repoName: "🤗/transformers",
    repoUrl: "https://github.com/huggingface/transformers",
    docsUrl: "https://huggingface.co/docs/transformers",
    snippets: transformersSnippets,
    filter: true,
  },
} satisfies Record<string, ModelLibrary>;
