/** A value that survives JSON.stringify unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string | ChatContentPart[];
}

/**
 * The example request for a task, as plain data: snippet generators render it in their own language
 * (with that language's quoting), the hub serves it as JSON.
 */
export type TaskInputExample =
  /** A JSON body `{ inputs, parameters? }`. `fileFields` names keys of `inputs` that hold a file name to send
   * base64-encoded (visual and document question answering). */
  | { kind: "json"; inputs: JsonValue; parameters?: Record<string, JsonValue>; fileFields?: string[] }
  /** A binary body read from a local file; `parameters`, when present, travel beside it in a JSON request. */
  | { kind: "file"; fileName: string; contentType: string; parameters?: Record<string, JsonValue> }
  /** A chat-completion request's messages. */
  | { kind: "chat"; messages: ChatMessage[] };

/** A task with no example input, and why: the caller cannot build a runnable request for it. */
export interface NoInputExample {
  kind: "none";
  reason: string;
}
