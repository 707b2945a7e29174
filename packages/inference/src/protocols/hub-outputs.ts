import { isBlob } from "../encoding.js";
import type { InferenceTask } from "../types.js";
import {
  expectShape,
  isArrayOf,
  isLabelScore,
  isNumber,
  isNumberTensor,
  isObject,
  isString,
} from "../validate.js";

/**
 * Output checks for the hub's pipeline answers (hf-inference and compatible servers), one per task,
 * following the public inference types. Servers that wrap a single answer in an array are unwrapped.
 */
type Parser = (value: unknown, args: Record<string, unknown>) => unknown;

const first = (value: unknown) => (Array.isArray(value) && value.length === 1 ? value[0] : value);

const labelScores =
  (task: string): Parser =>
  (value) => {
    // text-classification answers one list per input: [[{label, score}]] for a single input.
    const list = Array.isArray(value) && Array.isArray(value[0]) ? value[0] : value;
    return expectShape(list, isArrayOf(list, isLabelScore), task, "Array<{label: string, score: number}>");
  };

const objectList =
  (task: string, expected: string, item: (x: Record<string, unknown>) => boolean): Parser =>
  (value) =>
    expectShape(
      value,
      isArrayOf(value, (x) => isObject(x) && item(x)),
      task,
      expected,
    );

const single =
  (task: string, expected: string, item: (x: Record<string, unknown>) => boolean): Parser =>
  (value) => {
    const one = first(value);
    return expectShape(one, isObject(one) && item(one), task, expected);
  };

/** Translation / summarization answer one object per input; a single input gets a single object back. */
const perInput =
  (task: string, key: string): Parser =>
  (value, args) => {
    const ok = isArrayOf(value, (x) => isObject(x) && isString(x[key]));
    expectShape(value, ok, task, `Array<{${key}: string}>`);
    return Array.isArray(args.inputs) ? value : (value as unknown[])[0];
  };

const media: Parser = (value) => expectShape(value, isBlob(value), "media", "binary media (Blob)");

export const HUB_OUTPUT_PARSERS: Partial<Record<InferenceTask, Parser>> = {
  "text-classification": labelScores("text-classification"),
  "audio-classification": labelScores("audio-classification"),
  "image-classification": labelScores("image-classification"),
  "zero-shot-image-classification": labelScores("zero-shot-image-classification"),
  "zero-shot-classification": (value) => {
    // Older servers answer [{sequence, labels, scores}]: read as today's [{label, score}].
    if (isArrayOf(value, (x) => isObject(x) && Array.isArray(x.labels) && Array.isArray(x.scores))) {
      const [first] = value as Array<{ labels: unknown[]; scores: unknown[] }>;
      value = (first?.labels ?? []).map((label, index) => ({ label, score: first?.scores[index] }));
    }
    return expectShape(
      value,
      isArrayOf(value, isLabelScore),
      "zero-shot-classification",
      "Array<{label, score}>",
    );
  },
  "token-classification": objectList(
    "token-classification",
    "Array<{entity_group, score, word, start, end}>",
    (x) => isNumber(x.score) && isString(x.word) && (isString(x.entity_group) || isString(x.entity)),
  ),
  "fill-mask": objectList(
    "fill-mask",
    "Array<{score, token, token_str, sequence}>",
    (x) => isNumber(x.score) && isNumber(x.token) && isString(x.token_str) && isString(x.sequence),
  ),
  "question-answering": single(
    "question-answering",
    "{answer: string, score: number, start: number, end: number}",
    (x) => isString(x.answer) && isNumber(x.score) && isNumber(x.start) && isNumber(x.end),
  ),
  "table-question-answering": single(
    "table-question-answering",
    "{answer: string, coordinates: number[][], cells: string[]}",
    (x) => isString(x.answer) && Array.isArray(x.coordinates) && isArrayOf(x.cells, isString),
  ),
  summarization: perInput("summarization", "summary_text"),
  translation: perInput("translation", "translation_text"),
  "text-generation": single("text-generation", "{generated_text: string}", (x) => isString(x.generated_text)),
  "image-to-text": single("image-to-text", "{generated_text: string}", (x) => isString(x.generated_text)),
  "feature-extraction": (value) =>
    expectShape(value, isNumberTensor(value), "feature-extraction", "nested arrays of numbers"),
  "sentence-similarity": (value) =>
    expectShape(value, isArrayOf(value, isNumber), "sentence-similarity", "number[]"),
  "automatic-speech-recognition": (value) =>
    expectShape(
      value,
      isObject(value) && isString(value.text),
      "automatic-speech-recognition",
      "{text: string}",
    ),
  "audio-to-audio": objectList(
    "audio-to-audio",
    "Array<{label: string, blob: string, content-type: string}>",
    (x) => isString(x.label) && isString(x.blob),
  ),
  "image-segmentation": objectList(
    "image-segmentation",
    "Array<{label: string, mask: string, score: number}>",
    (x) => isString(x.label) && isString(x.mask),
  ),
  "object-detection": objectList(
    "object-detection",
    "Array<{label: string, score: number, box: {xmin, ymin, xmax, ymax}}>",
    (x) => isString(x.label) && isNumber(x.score) && isObject(x.box),
  ),
  "document-question-answering": objectList("document-question-answering", "Array<{answer: string}>", (x) =>
    isString(x.answer),
  ),
  "visual-question-answering": objectList(
    "visual-question-answering",
    "Array<{answer: string, score: number}>",
    (x) => isString(x.answer) && isNumber(x.score),
  ),
  "tabular-classification": (value) =>
    expectShape(value, isArrayOf(value, isNumber), "tabular-classification", "number[]"),
  "tabular-regression": (value) =>
    expectShape(value, isArrayOf(value, isNumber), "tabular-regression", "number[]"),
  "text-to-image": media,
  "image-to-image": media,
  "text-to-speech": media,
  "text-to-audio": media,
};

/** Tasks whose input is a file: sent as raw bytes unless parameters force a JSON body. */
export const BINARY_INPUT_TASKS: ReadonlySet<InferenceTask> = new Set<InferenceTask>([
  "image-classification",
  "image-segmentation",
  "image-to-text",
  "image-to-image",
  "object-detection",
  "automatic-speech-recognition",
  "audio-classification",
  "audio-to-audio",
]);

/** Tasks whose JSON body carries an image as base64 (`inputs.image` or `inputs`). */
export const BASE64_IMAGE_TASKS: ReadonlySet<InferenceTask> = new Set<InferenceTask>([
  "zero-shot-image-classification",
  "visual-question-answering",
  "document-question-answering",
]);
