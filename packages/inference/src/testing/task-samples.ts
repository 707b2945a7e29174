import type { InferenceTask } from "../types.js";

const png = () =>
  new Blob(
    [
      Uint8Array.from(
        atob(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        ),
        (c) => c.charCodeAt(0),
      ),
    ],
    { type: "image/png" },
  );
const wav = () => new Blob([new Uint8Array(64)], { type: "audio/wav" });

/** One sample input per task, written once: the contract suite runs each over every provider serving it. */
export const TASK_SAMPLES: Record<string, () => Record<string, unknown>> = {
  conversational: () => ({ messages: [{ role: "user", content: "Say hello" }], max_tokens: 16 }),
  "text-generation": () => ({ inputs: "The answer to the universe is", parameters: { max_new_tokens: 8 } }),
  "text-classification": () => ({ inputs: "I like you. I love you." }),
  "token-classification": () => ({ inputs: "My name is Sarah and I live in London" }),
  "fill-mask": () => ({ inputs: "[MASK] world!" }),
  "question-answering": () => ({
    inputs: { question: "Capital of France?", context: "Paris is the capital." },
  }),
  "table-question-answering": () => ({
    inputs: { query: "How many stars?", table: { Repository: ["Transformers"], Stars: ["36542"] } },
  }),
  summarization: () => ({
    inputs: "The tower is 324 metres tall, about the same height as an 81-storey building.",
  }),
  translation: () => ({ inputs: "My name is Wolfgang and I live in Berlin" }),
  "zero-shot-classification": () => ({
    inputs: "I want a refund",
    parameters: { candidate_labels: ["refund", "faq"] },
  }),
  "feature-extraction": () => ({ inputs: "That is a happy person" }),
  "sentence-similarity": () => ({
    inputs: { source_sentence: "A happy person", sentences: ["A happy dog", "A sunny day"] },
  }),
  "automatic-speech-recognition": () => ({ inputs: new Blob([new Uint8Array(64)], { type: "audio/wav" }) }),
  "audio-classification": () => ({ inputs: wav() }),
  "audio-to-audio": () => ({ inputs: wav() }),
  "image-classification": () => ({ inputs: png() }),
  "image-segmentation": () => ({ inputs: png() }),
  "image-to-text": () => ({ inputs: png() }),
  "object-detection": () => ({ inputs: png() }),
  "zero-shot-image-classification": () => ({
    inputs: png(),
    parameters: { candidate_labels: ["cat", "dog"] },
  }),
  "document-question-answering": () => ({
    inputs: { image: png(), question: "What is the invoice number?" },
  }),
  "visual-question-answering": () => ({ inputs: { image: png(), question: "How many cats?" } }),
  "tabular-classification": () => ({
    inputs: { data: { fixed_acidity: ["7.4"], volatile_acidity: ["0.7"] } },
  }),
  "tabular-regression": () => ({ inputs: { data: { Height: ["11.52"], Length1: ["23.2"] } } }),
  "text-to-image": () => ({ inputs: "An astronaut riding a horse", parameters: { width: 64, height: 64 } }),
  "text-to-speech": () => ({ inputs: "Hello there" }),
  "text-to-audio": () => ({ inputs: "A calm piano melody" }),
  "image-to-image": () => ({ inputs: png(), parameters: { prompt: "make it blue" } }),
  "text-to-video": () => ({ inputs: "A cat playing piano" }),
  "image-to-video": () => ({ inputs: png(), parameters: { prompt: "the cat walks" } }),
  "image-text-to-image": () => ({ inputs: png(), parameters: { prompt: "make the cat blue" } }),
  "image-text-to-video": () => ({ inputs: png(), parameters: { prompt: "the cat walks away" } }),
};

/** The hub pipeline tag a sim model needs to serve a task (chat is a conversational text-generation model). */
export function pipelineOf(task: InferenceTask): string {
  return task === "conversational" ? "text-generation" : task;
}
