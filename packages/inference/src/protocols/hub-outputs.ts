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

// The calls below are marked pure: in the published bundle this table shares a file with the chat path,
// so a user's bundler drops it only statement by statement, and a call it cannot prove free of effects
// would keep the whole table (and its helpers) in a chat-only program.
export const HUB_OUTPUT_PARSERS: Partial<Record<InferenceTask, Parser>> = {
  "text-classification": /* @__PURE__ */ labelScores("text-classification"),
  "audio-classification": /* @__PURE__ */ labelScores("audio-classification"),
  "image-classification": /* @__PURE__ */ labelScores("image-classification"),
  "zero-shot-image-classification": /* @__PURE__ */ labelScores("zero-shot-image-classification"),
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
  "token-classification": /* @__PURE__ */ objectList(
    "token-classification",
    "Array<{entity_group, score, word, start, end}>",
    (x) => isNumber(x.score) && isString(x.word) && (isString(x.entity_group) || isString(x.entity)),
  ),
  "fill-mask": /* @__PURE__ */ objectList(
    "fill-mask",
    "Array<{score, token, token_str, sequence}>",
    (x) => isNumber(x.score) && isNumber(x.token) && isString(x.token_str) && isString(x.sequence),
  ),
  "question-answering": /* @__PURE__ */ single(
    "question-answering",
    "{answer: string, score: number, start: number, end: number}",
    (x) => isString(x.answer) && isNumber(x.score) && isNumber(x.start) && isNumber(x.end),
  ),
  "table-question-answering": /* @__PURE__ */ single(
    "table-question-answering",
    "{answer: string, coordinates: number[][], cells: string[]}",
    (x) => isString(x.answer) && Array.isArray(x.coordinates) && isArrayOf(x.cells, isString),
  ),
  summarization: /* @__PURE__ */ perInput("summarization", "summary_text"),
  translation: /* @__PURE__ */ perInput("translation", "translation_text"),
  "text-generation": /* @__PURE__ */ single("text-generation", "{generated_text: string}", (x) =>
    isString(x.generated_text),
  ),
  "image-to-text": /* @__PURE__ */ single("image-to-text", "{generated_text: string}", (x) =>
    isString(x.generated_text),
  ),
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
  "audio-to-audio": /* @__PURE__ */ objectList(
    "audio-to-audio",
    "Array<{label: string, blob: string, content-type: string}>",
    (x) => isString(x.label) && isString(x.blob),
  ),
  "image-segmentation": /* @__PURE__ */ objectList(
    "image-segmentation",
    "Array<{label: string, mask: string, score: number}>",
    (x) => isString(x.label) && isString(x.mask),
  ),
  "object-detection": /* @__PURE__ */ objectList(
    "object-detection",
    "Array<{label: string, score: number, box: {xmin, ymin, xmax, ymax}}>",
    (x) => isString(x.label) && isNumber(x.score) && isObject(x.box),
  ),
  "document-question-answering": /* @__PURE__ */ objectList(
    "document-question-answering",
    "Array<{answer: string}>",
    (x) => isString(x.answer),
  ),
  "visual-question-answering": /* @__PURE__ */ objectList(
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
