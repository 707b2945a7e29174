import { NoInputExampleError } from "../errors.js";
import { isConversational, type ModelData, type WidgetExample } from "../model-data.js";
import { DEFAULT_CHAT_MESSAGES } from "./constants.js";
import { DEFAULT_MASK_TOKEN, DEFAULT_TASK_INPUTS } from "./task-defaults.js";
import type { TaskInputExample } from "./types.js";

type ModelForInput = Pick<ModelData, "id" | "tags" | "pipeline_tag" | "widgetData" | "config">;

/** The model's own mask token, from its tokenizer config, when it names one. */
function maskToken(model: ModelForInput): string | undefined {
  const token = model.config?.tokenizer_config?.mask_token;
  if (typeof token === "string") return token;
  if (
    typeof token === "object" &&
    token !== null &&
    typeof (token as { content?: unknown }).content === "string"
  ) {
    return (token as { content: string }).content;
  }
  return undefined;
}

/** Applies the model card's first widget example over the task default, where it fits the task's shape. */
function fromWidget(
  widget: WidgetExample,
  fallback: TaskInputExample,
  model: ModelForInput,
): TaskInputExample {
  if (fallback.kind !== "json") return fallback;
  if (model.pipeline_tag === "sentence-similarity") {
    if (typeof widget.source_sentence === "string" && Array.isArray(widget.sentences)) {
      return {
        kind: "json",
        inputs: { source_sentence: widget.source_sentence, sentences: [...widget.sentences] },
      };
    }
    return fallback;
  }
  if (model.pipeline_tag === "question-answering") {
    if (typeof widget.text === "string" && typeof widget.context === "string") {
      return { kind: "json", inputs: { question: widget.text, context: widget.context } };
    }
    return fallback;
  }
  if (typeof widget.text === "string" && typeof fallback.inputs === "string") {
    const labels = widget.candidate_labels;
    if (model.pipeline_tag === "zero-shot-classification" && typeof labels === "string") {
      const candidateLabels = labels
        .split(",")
        .map((label) => label.trim())
        .filter((label) => label !== "");
      return { ...fallback, inputs: widget.text, parameters: { candidate_labels: candidateLabels } };
    }
    return { ...fallback, inputs: widget.text };
  }
  return fallback;
}

/**
 * The example request for a model, or undefined when its task has none: the model card's widget example
 * first, then the task's default (spec §9). Conversational models get chat messages.
 */
export function findModelInputExample(model: ModelForInput): TaskInputExample | undefined {
  const example = pickExample(model);
  // A copy: callers may adapt the example without changing the shared defaults.
  return example === undefined ? undefined : copyJson(example);
}

/** A deep copy of JSON data (examples are nothing else): several times faster than structuredClone. */
function copyJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    // Model cards are user data: a "__proto__" key stays a key.
    if (key === "__proto__")
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}

function pickExample(model: ModelForInput): TaskInputExample | undefined {
  const task = model.pipeline_tag;
  if (task === undefined) return undefined;
  if (task === "text-generation" && isConversational(model)) {
    return { kind: "chat", messages: [...DEFAULT_CHAT_MESSAGES] };
  }
  const fallback = DEFAULT_TASK_INPUTS[task];
  if (fallback === undefined || fallback.kind === "none") return undefined;
  const widget = model.widgetData?.[0];
  if (widget !== undefined) return fromWidget(widget, fallback, model);
  if (task === "fill-mask" && fallback.kind === "json" && typeof fallback.inputs === "string") {
    const token = maskToken(model);
    if (token !== undefined)
      return { ...fallback, inputs: fallback.inputs.replace(DEFAULT_MASK_TOKEN, token) };
  }
  return fallback;
}

/**
 * Like findModelInputExample, for callers that cannot go on without an example.
 * @throws NoInputExampleError ("No input example has been defined for this model task.")
 */
export function getModelInputExample(model: ModelForInput): TaskInputExample {
  const example = findModelInputExample(model);
  if (example === undefined) throw new NoInputExampleError(model.id, model.pipeline_tag);
  return example;
}
