import type { ModelData } from "../../model-data.js";
import { MESSAGE_TITLE, PEFT_BASE_MODEL_NOT_FOUND, PEFT_INVALID_TASK_TYPE } from "../messages.js";
import { comment, py, pythonIdentifier } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** peft task types (spec §3) and the transformers auto class that loads their base model. */
export const PEFT_TASK_AUTO_CLASSES: Readonly<Record<string, string>> = {
  CAUSAL_LM: "AutoModelForCausalLM",
  SEQ_2_SEQ_LM: "AutoModelForSeq2SeqLM",
  TOKEN_CLS: "AutoModelForTokenClassification",
  SEQ_CLS: "AutoModelForSequenceClassification",
};

/** peft: load the base model named in adapter_config.json, then the adapter on top of it. */
export function peftSnippets(model: ModelData): LibrarySnippet[] {
  const { base_model_name_or_path: base, task_type: taskType } = model.config?.peft ?? {};
  const autoClass =
    taskType !== undefined && Object.hasOwn(PEFT_TASK_AUTO_CLASSES, taskType)
      ? PEFT_TASK_AUTO_CLASSES[taskType]
      : undefined;
  if (autoClass === undefined) return [snippet(comment("python", PEFT_INVALID_TASK_TYPE), MESSAGE_TITLE)];
  if (!base) return [snippet(comment("python", PEFT_BASE_MODEL_NOT_FOUND), MESSAGE_TITLE)];
  const auto = pythonIdentifier(autoClass, "AutoModel");
  return [
    snippet(
      py`from peft import PeftModel
from transformers import ${auto}

base_model = ${auto}.from_pretrained(${base})
model = PeftModel.from_pretrained(base_model, ${model.id})`,
      "Load the adapter on its base model",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const PEFT_LIBRARIES = {
  peft: {
    prettyLabel: "PEFT",
    repoName: "PEFT",
    repoUrl: "https://github.com/huggingface/peft",
    docsUrl: "https://huggingface.co/docs/peft",
    snippets: peftSnippets,
    filter: true,
    countDownloads: `path:"adapter_config.json"`,
  },
} satisfies Record<string, ModelLibrary>;
