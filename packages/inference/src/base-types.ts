import type { PipelineType } from "@modelhub/tasks";

// The types the provider registry's own files need. They live apart from types.ts because types.ts
// derives `InferenceProvider` from the registry: importing it from a provider file would close a cycle.

/** Task ids are the hub's pipeline tags, plus `"conversational"` (chat), as in provider mappings. */
export type InferenceTask = PipelineType | "conversational";

export type JsonObject = Record<string, unknown>;

export interface Logger {
  debug?(message: string): void;
  warn(message: string): void;
  error?(message: string, detail?: unknown): void;
}

/** How text-to-image returns its picture. */
export type ImageOutputType = "blob" | "url" | "dataUrl" | "json";

export interface RetryOptions {
  /** Total attempts including the first (default 3). 1 disables retries. */
  maxAttempts?: number;
  /** First backoff step in ms (default 250); doubles per attempt, jittered. */
  baseDelayMs?: number;
  /** Upper bound of one wait in ms, `Retry-After` included (default 8000). */
  maxDelayMs?: number;
}
