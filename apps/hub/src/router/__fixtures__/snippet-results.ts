import type { InferenceSnippet } from "@modelhub/snippets";
import type { BatchResult } from "@modelhub/snippets/testing";

/** What a snippet was generated for: the provider is the one that serves the call (auto's pick for auto). */
export interface SnippetCall {
  model: string;
  provider: string;
  task: string;
  streaming: boolean;
}

type MediaKind = "image" | "audio" | "video";

/** Generation tasks: the snippet saves the result in a file of this kind. */
const MEDIA_OF_TASK: Partial<Record<string, MediaKind>> = {
  "text-to-image": "image",
  "image-to-image": "image",
  "image-text-to-image": "image",
  "text-to-video": "video",
  "image-to-video": "video",
  "image-text-to-video": "video",
  "text-to-speech": "audio",
  "text-to-audio": "audio",
};

/** A field with a non-empty value, as Python's repr, a dataclass repr or JSON prints it. */
const field = (name: string, value = "[^'\"]+") => new RegExp(`['"]?${name}['"]?\\s*[:=]\\s*['"]${value}['"]`);
const NUMBER_LIST = /\[\s*\[?\s*-?\d+(\.\d+)?(e-?\d+)?[\s,]+-?\d/;

/**
 * What provider-sim answers each task with (packages/provider-sim: hf-task-outputs.ts and the providers'
 * files, or a recorded real reply where the request matches one), as the printed result must show it: a
 * label, an answer, numbers... An error body, `None`, an empty list or nothing at all fails.
 */
const RESULT_OF_TASK: Partial<Record<string, RegExp[]>> = {
  "text-generation": [/simulator (carried on|after: )/],
  "text-classification": [field("label", "POSITIVE"), /score/],
  "token-classification": [field("entity_group", "PER"), field("word")],
  "question-answering": [field("answer"), /score/],
  "table-question-answering": [field("answer"), /cells/],
  "zero-shot-classification": [field("label"), /score/],
  translation: [field("translation_text", "\\[translated\\] [^'\"]+")],
  summarization: [field("summary_text")],
  "feature-extraction": [NUMBER_LIST],
  "sentence-similarity": [NUMBER_LIST],
  "fill-mask": [field("token_str", "the"), field("sequence")],
  "automatic-speech-recognition": [field("text")],
  "audio-classification": [field("label", "neu"), /score/],
  "audio-to-audio": [/blob/, /fLaC|ZkxhQ/],
  "image-classification": [field("label"), /score/],
  "object-detection": [field("label", "cat"), /box/],
  "image-segmentation": [field("label", "cat"), /mask/],
  "zero-shot-image-classification": [field("label", "cat"), /score/],
  "visual-question-answering": [field("answer", "2"), /score/],
  "document-question-answering": [field("answer", "us-001")],
  "image-to-text": [field("generated_text")],
  "tabular-classification": [/\[\s*\d+\s*,\s*\d+\s*\]/],
  "tabular-regression": [/\[\s*\d+(\.\d+)?\s*,\s*\d+(\.\d+)?\s*\]/],
  "text-ranking": [/score/, /index/],
};

/** The kind of a media file, by its first bytes. */
export function mediaKindOf(bytes: Buffer): MediaKind | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (ascii(1, 4) === "PNG" || (bytes[0] === 0xff && bytes[1] === 0xd8)) return "image";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image";
  if (ascii(0, 4) === "fLaC" || ascii(0, 3) === "ID3") return "audio";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "audio";
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return "audio";
  if (ascii(4, 8) === "ftyp") return "video";
  return undefined;
}

/** The text of a streamed chat as printed raw (curl): the `delta.content` of each SSE event, joined. */
function streamedText(stdout: string): string {
  let text = "";
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try {
      const event = JSON.parse(line.slice(5)) as { choices?: Array<{ delta?: { content?: string } }> };
      text += event.choices?.[0]?.delta?.content ?? "";
    } catch {
      // `data: [DONE]`
    }
  }
  return text;
}

/**
 * Whether a snippet that ran showed the task's real result; undefined when it did, else what is wrong.
 * Chat: the simulated reply of the provider that serves the call (the router's pick for auto). Generation:
 * a saved file of the right media kind. Other tasks: the simulator's answer, as printed.
 */
export function checkSnippetResult(
  call: SnippetCall,
  snippet: InferenceSnippet,
  result: BatchResult,
): string | undefined {
  const media = MEDIA_OF_TASK[call.task];
  if (media) {
    const kinds = result.saved.map((file) => `${file.name}: ${mediaKindOf(file.bytes) ?? "unknown"}`);
    if (result.saved.some((file) => mediaKindOf(file.bytes) === media)) return undefined;
    return `expected a saved ${media} file, found ${kinds.length ? kinds.join(", ") : "none"}; printed ${JSON.stringify(result.stdout.slice(0, 300))}`;
  }
  if (call.task === "conversational") {
    const reply = `This is a simulated reply from ${call.provider} (`;
    const printed =
      snippet.client === "curl" && call.streaming ? streamedText(result.stdout) : result.stdout;
    if (printed.includes(reply)) return undefined;
    return `expected the reply of ${call.provider}, printed ${JSON.stringify(result.stdout.slice(0, 300))}`;
  }
  const expected = RESULT_OF_TASK[call.task];
  if (!expected) return `no expected result is known for ${call.task}`;
  const missing = expected.filter((pattern) => !pattern.test(result.stdout));
  if (missing.length === 0) return undefined;
  return `expected ${missing.join(" and ")} in what it printed: ${JSON.stringify(result.stdout.slice(0, 300))}`;
}
