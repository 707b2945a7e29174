import type { ChatMessage, JsonValue } from "@modelhub/tasks";

export const SNIPPET_LANGUAGES = ["python", "js", "sh"] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number];

/** Spec §9: the clients each language's snippets are written for, in the order they are shown. */
export const SNIPPET_CLIENTS = {
  python: ["huggingface_hub", "requests", "openai", "fal_client"],
  js: ["huggingface.js", "openai", "fetch"],
  sh: ["curl"],
} as const satisfies Record<SnippetLanguage, readonly string[]>;
export type SnippetClient = (typeof SNIPPET_CLIENTS)[SnippetLanguage][number];

/**
 * What each client needs installed before its snippet runs (empty when nothing is needed). huggingface_hub
 * returns numpy arrays for embeddings and PIL images for generated images: those tasks add their package.
 */
export const CLIENT_INSTALL: Record<SnippetLanguage, Partial<Record<SnippetClient, string>>> = {
  python: {
    huggingface_hub: "pip install --upgrade huggingface_hub",
    requests: "pip install requests",
    openai: "pip install openai",
    fal_client: "pip install fal-client",
  },
  js: {
    "huggingface.js": "npm install @huggingface/inference",
    openai: "npm install openai",
    fetch: "",
  },
  sh: { curl: "" },
};

/** Spec §3: one snippet of the result. */
export interface InferenceSnippet {
  language: SnippetLanguage;
  client: SnippetClient;
  content: string;
  /** The install command for the client, or "" when nothing is needed. */
  install: string;
}

export interface SnippetLogger {
  error(message: string, detail?: unknown): void;
}

export interface SnippetOptions {
  /** Chat models: stream the reply (server-sent events). */
  streaming?: boolean;
  /** Chat models: the conversation to send (default: one user question). */
  messages?: ChatMessage[];
  /** Shown only when set; 0 is a value. */
  temperature?: number;
  /** Default 500 (spec §9). */
  max_tokens?: number;
  /** Shown only when set; 0 is a value. */
  top_p?: number;
  /** The hub whose API the clients ask for provider mappings (default: the public Hugging Face hub). */
  hubUrl?: string;
  /** The hub's router (default: the public Hugging Face router). */
  routerUrl?: string;
  /** Any OpenAI-compatible or hf-inference-style server: snippets call it directly. */
  endpointUrl?: string;
  /** Organisation billed for the calls (X-HF-Bill-To). */
  billTo?: string;
  /** Replaces the task's example input. */
  inputs?: JsonValue;
  /** Write the given access token into the code instead of reading it from the environment. */
  inlineToken?: boolean;
  /** Call the provider directly with its own key rather than through the router. */
  directRequest?: boolean;
  /**
   * The `auto` provider: where a client chooses the provider itself, the snippets let it (`provider="auto"`
   * for the hub clients, the bare `owner/name` for the router's `/v1`); the provider given is what `auto`
   * picks today, for the snippets that must name one.
   */
  autoProvider?: boolean;
  /** Where "Failed to parse body as JSON" goes (default: @modelhub/inference's default logger, the console). */
  logger?: SnippetLogger;
}
