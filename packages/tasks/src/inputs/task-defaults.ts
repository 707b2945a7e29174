import type { PipelineType } from "../pipelines.js";
import {
  DEFAULT_CHAT_MESSAGES,
  DEFAULT_VISION_CHAT_PROMPT,
  SAMPLE_AUDIO_FILE,
  SAMPLE_DOCUMENT_FILE,
  SAMPLE_IMAGE_FILE,
  SAMPLE_IMAGE_URL,
  SAMPLE_VIDEO_FILE,
  TEXT_TO_IMAGE_PROMPT,
  ZERO_SHOT_IMAGE_LABELS,
  ZERO_SHOT_TEXT_EXAMPLE,
  ZERO_SHOT_TEXT_LABELS,
} from "./constants.js";
import type { NoInputExample, TaskInputExample } from "./types.js";

const text = (inputs: string): TaskInputExample => ({ kind: "json", inputs });
const audio: TaskInputExample = { kind: "file", ...SAMPLE_AUDIO_FILE };
const image: TaskInputExample = { kind: "file", ...SAMPLE_IMAGE_FILE };
const imageWithPrompt = (prompt: string): TaskInputExample => ({
  kind: "file",
  ...SAMPLE_IMAGE_FILE,
  parameters: { prompt },
});
const none = (reason: string): NoInputExample => ({ kind: "none", reason });

/** The placeholder a fill-mask example uses when the model's tokenizer does not name its mask token. */
export const DEFAULT_MASK_TOKEN = "[MASK]";
export const FILL_MASK_TEMPLATE = `The answer to the universe is ${DEFAULT_MASK_TOKEN}.`;

/**
 * The example request for each pipeline task when the model gives none of its own (spec §9). A task without
 * one says why: the compiler checks every pipeline type is listed.
 */
export const DEFAULT_TASK_INPUTS: Record<PipelineType, TaskInputExample | NoInputExample> = {
  "text-classification": text("I really enjoyed this film, the ending was perfect."),
  "token-classification": text("My name is Clara and I live in Berkeley, California."),
  "table-question-answering": {
    kind: "json",
    inputs: {
      query: "How many stars does the transformers repository have?",
      table: {
        Repository: ["Transformers", "Datasets", "Tokenizers"],
        Stars: ["36542", "4512", "3934"],
        Contributors: ["651", "77", "34"],
        "Programming language": ["Python", "Python", "Rust, Python and NodeJS"],
      },
    },
  },
  "question-answering": {
    kind: "json",
    inputs: {
      question: "Where does Clara live?",
      context: "My name is Clara and I live in Berkeley, California.",
    },
  },
  "zero-shot-classification": {
    kind: "json",
    inputs: ZERO_SHOT_TEXT_EXAMPLE,
    parameters: { candidate_labels: [...ZERO_SHOT_TEXT_LABELS] },
  },
  translation: text("My name is Wolfgang and I live in Berlin."),
  summarization: text(
    "The tower is 324 metres (1,063 ft) tall, about the same height as an 81-storey building, and the tallest structure in Paris. Its base is square, measuring 125 metres (410 ft) on each side. It was the first structure to reach a height of 300 metres.",
  ),
  "feature-extraction": text("Today is a sunny day and I will get some ice cream."),
  "text-generation": text("The key to a good night's sleep is"),
  "fill-mask": text(FILL_MASK_TEMPLATE),
  "sentence-similarity": {
    kind: "json",
    inputs: {
      source_sentence: "That is a happy person",
      sentences: ["That is a happy dog", "That is a very happy person", "Today is a sunny day"],
    },
  },
  "text-to-speech": text("The quick brown fox jumps over the lazy dog."),
  "text-to-audio": text("liquid drum and bass, atmospheric synths, airy sounds"),
  "automatic-speech-recognition": audio,
  "audio-to-audio": audio,
  "audio-classification": audio,
  "audio-text-to-text": none("hosted chat APIs take no audio parts; run the model locally with its library"),
  "voice-activity-detection": audio,
  "depth-estimation": image,
  "image-classification": image,
  "object-detection": image,
  "image-segmentation": image,
  "text-to-image": text(TEXT_TO_IMAGE_PROMPT),
  "image-to-text": image,
  "image-to-image": imageWithPrompt("Turn the cat into a tiger."),
  "image-to-video": imageWithPrompt("The cat starts to dance"),
  "unconditional-image-generation": none("the task takes no input: the model samples on its own"),
  "video-classification": { kind: "file", ...SAMPLE_VIDEO_FILE },
  "reinforcement-learning": none("an agent acts in a simulated environment, not on a request body"),
  robotics: none("a policy reads a robot's sensors, not a request body"),
  "tabular-classification": {
    kind: "json",
    inputs: { data: { fixed_acidity: [7.4, 7.8], volatile_acidity: [0.7, 0.88], alcohol: [9.4, 9.8] } },
  },
  "tabular-regression": {
    kind: "json",
    inputs: { data: { Length1: [23.2, 24], Height: [11.52, 12.48], Width: [4.02, 4.306] } },
  },
  "tabular-to-text": none("a hidden task with no hosted inference API"),
  "table-to-text": none("a hidden task with no hosted inference API"),
  "multiple-choice": none("a hidden task with no hosted inference API"),
  "text-ranking": {
    kind: "json",
    inputs: {
      query: "How many people live in Berlin?",
      texts: [
        "Berlin has a population of 3,520,031 registered inhabitants.",
        "Berlin is well known for its museums.",
      ],
    },
  },
  "text-retrieval": none("a hidden task with no hosted inference API"),
  "time-series-forecasting": none("no hosted inference API accepts a series; run the model with its library"),
  "text-to-video": text("A young man walking on the street"),
  "image-text-to-text": {
    kind: "chat",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: DEFAULT_VISION_CHAT_PROMPT },
          { type: "image_url", image_url: { url: SAMPLE_IMAGE_URL } },
        ],
      },
    ],
  },
  "image-text-to-image": imageWithPrompt("Turn the cat into a tiger."),
  "image-text-to-video": imageWithPrompt("The cat starts to dance"),
  "visual-question-answering": {
    kind: "json",
    inputs: { image: SAMPLE_IMAGE_FILE.fileName, question: "How many cats are lying down?" },
    fileFields: ["image"],
  },
  "document-question-answering": {
    kind: "json",
    inputs: { image: SAMPLE_DOCUMENT_FILE.fileName, question: "What is the invoice number?" },
    fileFields: ["image"],
  },
  "zero-shot-image-classification": {
    kind: "file",
    ...SAMPLE_IMAGE_FILE,
    parameters: { candidate_labels: [...ZERO_SHOT_IMAGE_LABELS] },
  },
  "graph-ml": none("graphs have no hosted inference API; run the model with its library"),
  "mask-generation": image,
  "zero-shot-object-detection": {
    kind: "file",
    ...SAMPLE_IMAGE_FILE,
    parameters: { candidate_labels: ["cat", "remote control"] },
  },
  "text-to-3d": text("A birthday cupcake with one candle"),
  "image-to-3d": image,
  "image-feature-extraction": image,
  "video-text-to-text": none("hosted chat APIs take no video parts; run the model locally with its library"),
  "keypoint-detection": image,
  "visual-document-retrieval": none("retrieval runs over an indexed collection of pages, not one request"),
  "any-to-any": { kind: "chat", messages: [...DEFAULT_CHAT_MESSAGES] },
  "video-to-video": none("no hosted inference API accepts a video input yet"),
  other: none("'other' has no common input format"),
};
