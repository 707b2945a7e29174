import type { InferenceTask } from "../base-types.js";
import type { ProviderConfig, TaskRoute } from "./types.js";

/** Pipelines served on the hub's pipeline protocol (outputs checked per task in protocols/hub-outputs). */
const PIPELINES: InferenceTask[] = [
  "text-classification",
  "token-classification",
  "fill-mask",
  "question-answering",
  "table-question-answering",
  "summarization",
  "translation",
  "zero-shot-classification",
  "text-generation",
  "feature-extraction",
  "sentence-similarity",
  "automatic-speech-recognition",
  "audio-classification",
  "audio-to-audio",
  "image-classification",
  "image-segmentation",
  "image-to-text",
  "object-detection",
  "zero-shot-image-classification",
  "document-question-answering",
  "visual-question-answering",
  "tabular-classification",
  "tabular-regression",
  "text-to-image",
  "image-to-image",
  "text-to-speech",
  "text-to-audio",
];

const tasks: Partial<Record<InferenceTask, TaskRoute>> = Object.fromEntries(
  PIPELINES.map((task) => [task, { protocol: "hf-pipeline" }]),
);
// The model is in the route (the recorded router traffic sends none); endpointUrl servers (vLLM,
// llama.cpp, Ollama) need it in the body.
tasks.conversational = {
  protocol: "openai-chat",
  path: "/models/{model}/v1/chat/completions",
  modelInBody: "endpoint-only",
};

/** The hub's own serverless inference; reached through the router (it has no host of its own). */
export const hfInference: ProviderConfig = {
  id: "hf-inference",
  displayName: "HF Inference",
  baseUrl: "https://router.huggingface.co/hf-inference",
  apiKeyEnv: "HF_TOKEN",
  tasks,
};
