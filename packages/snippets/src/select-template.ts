import type { PipelineType } from "@modelhub/tasks";
import type { SnippetClient } from "./types.js";

/** What the generator knows about the call when it picks a template. */
export interface TemplateChoice {
  /** The pipeline task, or "conversational" for chat models. */
  task: PipelineType | "conversational";
  client: SnippetClient;
  provider: string;
  streaming: boolean;
  /** The example input: a JSON value, a local file, or a chat conversation. */
  inputKind: "json" | "file" | "chat";
  hasParameters: boolean;
  /** The provider answers image generation with base64 JSON (`data[0].b64_json`). */
  imagesAsBase64: boolean;
  /** The registry's protocol for the provider and task (`openai-images`, `bfl-job`...). */
  protocol?: string | undefined;
}

/** Raw HTTP (requests, fetch) templates for protocols whose answer needs more than one request or a shape of its own. */
const RAW_PROTOCOL_TEMPLATES: Partial<Record<string, string>> = {
  "bfl-job": "bflJob",
  // fal's queue: submit, poll the status, read the result (video, image editing with a prompt).
  "fal-queue": "falQueue",
  "hyperbolic-images": "imagesListB64Output",
  // WaveSpeed's jobs: submit, ask for the prediction's result until completed, download the output.
  "wavespeed-job": "wavespeedJob",
};

const FILE_TASKS = new Set<string>([
  "audio-classification",
  "audio-to-audio",
  "automatic-speech-recognition",
  "image-classification",
  "image-segmentation",
  "image-to-text",
  "object-detection",
  "zero-shot-image-classification",
]);

/** Media outputs a raw HTTP call saves to a file (hf-inference answers with the bytes). */
const BINARY_OUTPUT_FILE: Partial<Record<string, string>> = {
  "text-to-image": "image.png",
  "text-to-speech": "speech.flac",
  "text-to-audio": "audio.flac",
};

/** Tasks whose hub-client call has its own template; other tasks use the basic templates. */
const HUB_CLIENT_TEMPLATES: Record<"huggingface_hub" | "huggingface.js", Partial<Record<string, string>>> = {
  huggingface_hub: {
    "question-answering": "questionAnswering",
    "table-question-answering": "tableQuestionAnswering",
    "visual-question-answering": "visualQuestionAnswering",
    "document-question-answering": "documentQuestionAnswering",
    "sentence-similarity": "sentenceSimilarity",
    "text-to-image": "textToImage",
    "text-to-video": "textToVideo",
    "text-to-speech": "textToSpeech",
    "image-to-image": "imageToImage",
    "image-to-video": "imageToVideo",
  },
  "huggingface.js": {
    "text-to-image": "textToImage",
    "text-to-video": "textToVideo",
    "text-to-speech": "textToSpeech",
    "image-to-image": "imageToImage",
  },
};

/** The file a raw HTTP snippet saves a media answer to, when the task answers with media. */
export function binaryOutputFile(task: string): string | undefined {
  return BINARY_OUTPUT_FILE[task];
}

/**
 * The template for one client, or undefined when that client has no snippet for the call. The rules:
 * chat models get the conversational templates (streaming or not) for the chat clients only; the two hub
 * clients get a per-task template or a basic one; raw HTTP clients (requests, fetch, curl) only where the
 * provider's answer can be used as it comes, which for non-chat tasks means hf-inference.
 */
export function selectTemplate(choice: TemplateChoice): string | undefined {
  const { task, client, provider } = choice;
  if (task === "conversational") {
    if (client === "fal_client") return undefined;
    return choice.streaming ? "conversationalStream" : "conversational";
  }
  if (client === "openai") return undefined;
  if (client === "fal_client") return task === "text-to-image" ? "textToImage" : undefined;
  if (client === "huggingface_hub" || client === "huggingface.js") {
    const special = HUB_CLIENT_TEMPLATES[client][task];
    if (special) return special;
    return choice.inputKind === "file" ? "basicFile" : "basic";
  }
  // Raw HTTP: requests, fetch, curl.
  if (provider !== "hf-inference") {
    const special = choice.protocol ? RAW_PROTOCOL_TEMPLATES[choice.protocol] : undefined;
    if (special) return client === "curl" ? undefined : special;
    if (task === "text-to-image") {
      return choice.imagesAsBase64 && client !== "curl" ? "imagesB64Output" : undefined;
    }
    // Other providers' non-chat answers are JSON only for text tasks; media needs their own client.
    return choice.inputKind === "json" && !BINARY_OUTPUT_FILE[task] && task !== "text-to-video"
      ? "basic"
      : undefined;
  }
  if (BINARY_OUTPUT_FILE[task]) return "binaryOutput";
  if (task === "image-to-image") return client === "requests" ? "imageToImage" : undefined;
  if (task === "visual-question-answering" || task === "document-question-answering") {
    return client === "requests" ? "imageQuestion" : undefined;
  }
  if (FILE_TASKS.has(task) || choice.inputKind === "file") {
    if (choice.hasParameters) return client === "requests" ? "fileWithParameters" : undefined;
    return "basicFile";
  }
  return choice.inputKind === "json" ? "basic" : undefined;
}

/** Templates whose snippet needs the client's method for the task (spec §5: skipped without one). */
export function needsMethodName(template: string): boolean {
  return template.startsWith("basic");
}
