import { type MediaKind, mediaBytes } from "../media.js";
import { embeddingFor } from "../protocols/json-body.js";

/**
 * What hf-inference answers for each pipeline, shaped like the recorded replies; values are derived from the
 * inputs so that different requests get different (but deterministic) answers.
 */
export type TaskReply =
  | { kind: "json"; body: unknown }
  | { kind: "media"; media: MediaKind }
  | { kind: "error"; status: number; message: string };

/** Pipelines whose input is the raw request body (an image or audio file), not JSON. */
export const BINARY_INPUT_TASKS: ReadonlySet<string> = new Set([
  "image-classification",
  "object-detection",
  "image-segmentation",
  "image-to-text",
  "image-to-image",
  "automatic-speech-recognition",
  "audio-classification",
  "audio-to-audio",
  "zero-shot-image-classification",
  "document-question-answering",
  "visual-question-answering",
]);

const words = (text: string) => text.split(/\s+/).filter(Boolean);

function scored<T extends object>(items: T[]): Array<T & { score: number }> {
  let remaining = 1;
  return items.map((item, index) => {
    const score = index === items.length - 1 ? remaining : Math.round(remaining * 0.8 * 1e6) / 1e6;
    remaining = Math.round((remaining - score) * 1e6) / 1e6;
    return { ...item, score };
  });
}

function text(inputs: unknown): string {
  if (typeof inputs === "string") return inputs;
  if (Array.isArray(inputs)) return inputs.map(String).join(" ");
  return JSON.stringify(inputs ?? "");
}

function rowsOf(inputs: unknown): number {
  const data = (inputs as { data?: Record<string, unknown[]> } | undefined)?.data;
  const first = data ? Object.values(data)[0] : undefined;
  return Array.isArray(first) ? first.length : 0;
}

const requireField = (message: string): TaskReply => ({ kind: "error", status: 400, message });

export function taskReply(task: string, inputs: unknown, parameters: Record<string, unknown>): TaskReply {
  switch (task) {
    case "text-classification":
      return {
        kind: "json",
        body: [
          scored([{ label: "POSITIVE" }, { label: "NEGATIVE" }]).map(({ label, score }) => ({
            label,
            score,
          })),
        ],
      };
    case "token-classification":
      return {
        kind: "json",
        body: words(text(inputs))
          .filter((word) => /^[A-Z]/.test(word))
          .map((word) => {
            const start = text(inputs).indexOf(word);
            return { entity_group: "PER", score: 0.99, word, start, end: start + word.length };
          }),
      };
    case "question-answering": {
      const { question, context } = (inputs ?? {}) as { question?: string; context?: string };
      if (typeof question !== "string" || typeof context !== "string") {
        return requireField("Error in `inputs`: `question` and `context` are required");
      }
      const answer =
        words(context)
          .at(-1)
          ?.replace(/[.!?]$/, "") ?? "";
      const start = context.lastIndexOf(answer);
      return { kind: "json", body: { score: 0.97, start, end: start + answer.length, answer } };
    }
    case "table-question-answering": {
      const table = (inputs as { table?: Record<string, string[]> } | undefined)?.table;
      if (!table || typeof (inputs as { query?: unknown }).query !== "string") {
        return requireField("Error in `inputs`: `query` and `table` are required");
      }
      const cell = Object.values(table)[0]?.[0] ?? "";
      return {
        kind: "json",
        body: { answer: cell, coordinates: [[0, 0]], cells: [cell], aggregator: "NONE" },
      };
    }
    case "zero-shot-classification": {
      const labels = parameters.candidate_labels;
      if (!Array.isArray(labels) || labels.length === 0) {
        return requireField("Error in `parameters`: `candidate_labels` is required");
      }
      // Today's API: one {label, score} per candidate label, best first (what huggingface_hub and
      // @huggingface/inference parse; the older {sequence, labels, scores} reads as None in them).
      return { kind: "json", body: scored(labels.map((label) => ({ label: String(label) }))) };
    }
    case "feature-extraction":
      return {
        kind: "json",
        body: Array.isArray(inputs)
          ? inputs.map((item) => embeddingFor(String(item)))
          : embeddingFor(text(inputs)),
      };
    case "sentence-similarity": {
      const { source_sentence, sentences } = (inputs ?? {}) as {
        source_sentence?: string;
        sentences?: unknown;
      };
      if (typeof source_sentence !== "string" || !Array.isArray(sentences)) {
        return requireField("Error in `inputs`: `source_sentence` and `sentences` are required");
      }
      const source = new Set(words(source_sentence.toLowerCase()));
      return {
        kind: "json",
        body: sentences.map((sentence) => {
          const other = words(String(sentence).toLowerCase());
          const shared = other.filter((word) => source.has(word)).length;
          return shared / Math.max(1, Math.max(other.length, source.size));
        }),
      };
    }
    case "text-generation":
      return { kind: "json", body: [{ generated_text: `${text(inputs)} and the simulator carried on.` }] };
    case "text2text-generation":
      return { kind: "json", body: [{ generated_text: `${words(text(inputs)).slice(0, 3).join(" ")}` }] };
    case "summarization":
      return { kind: "json", body: [{ summary_text: words(text(inputs)).slice(0, 12).join(" ") }] };
    case "translation":
      return { kind: "json", body: [{ translation_text: `[translated] ${text(inputs)}` }] };
    case "fill-mask": {
      const source = text(inputs);
      const mask = ["[MASK]", "<mask>"].find((token) => source.includes(token));
      if (!mask) return requireField("No mask_token ([MASK]) found on the input");
      return {
        kind: "json",
        body: scored(
          ["the", "a", "this", "my", "hello"].map((token_str, token) => ({ token: 1000 + token, token_str })),
        ).map((entry) => ({ ...entry, sequence: source.replace(mask, entry.token_str) })),
      };
    }
    case "image-classification":
    case "audio-classification":
      return {
        kind: "json",
        body: scored([
          { label: task === "image-classification" ? "tabby cat" : "neu" },
          { label: "other" },
        ]).map(({ label, score }) => ({ score, label })),
      };
    case "zero-shot-image-classification": {
      const labels = Array.isArray(parameters.candidate_labels)
        ? parameters.candidate_labels.map(String)
        : ["a", "b"];
      return {
        kind: "json",
        body: scored(labels.map((label) => ({ label }))).map(({ label, score }) => ({ score, label })),
      };
    }
    case "object-detection":
      return {
        kind: "json",
        body: [{ score: 0.99, label: "cat", box: { xmin: 1, ymin: 1, xmax: 6, ymax: 6 } }],
      };
    case "image-segmentation":
      return {
        kind: "json",
        body: [{ score: 0.98, label: "cat", mask: mediaBytes("png").toString("base64") }],
      };
    case "image-to-text":
      return { kind: "json", body: [{ generated_text: "a small simulated picture" }] };
    case "automatic-speech-recognition":
      return { kind: "json", body: { text: "THIS IS A SIMULATED TRANSCRIPT" } };
    case "audio-to-audio":
      return {
        kind: "json",
        body: [
          { label: "label_0", blob: mediaBytes("flac").toString("base64"), "content-type": "audio/flac" },
        ],
      };
    case "document-question-answering":
      return { kind: "json", body: [{ score: 0.6, answer: "us-001", start: 16, end: 16 }] };
    case "visual-question-answering":
      return {
        kind: "json",
        body: scored([{ answer: "2" }, { answer: "3" }]).map(({ answer, score }) => ({ score, answer })),
      };
    case "tabular-regression":
    case "tabular-classification": {
      const rows = rowsOf(inputs);
      if (rows === 0) return requireField("Error in `inputs`: `data` (columns of values) is required");
      return {
        kind: "json",
        body: Array.from({ length: rows }, (_, index) =>
          task === "tabular-regression" ? 100 + index * 10.5 : index % 2,
        ),
      };
    }
    case "text-to-image":
    case "image-to-image":
      return { kind: "media", media: "jpeg" };
    case "text-to-speech":
    case "text-to-audio":
      return { kind: "media", media: "flac" };
    default:
      return {
        kind: "error",
        status: 400,
        message: `Task ${task} is not served by hf-inference in the simulator.`,
      };
  }
}
