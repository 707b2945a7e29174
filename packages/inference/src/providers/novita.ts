import type { ProviderConfig } from "./types.js";

/** Novita: OpenAI-compatible text under /v3/openai; video is an async task polled by id. */
export const novita: ProviderConfig = {
  id: "novita",
  displayName: "Novita",
  baseUrl: "https://api.novita.ai",
  apiKeyEnv: "NOVITA_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat", path: "/v3/openai/chat/completions" },
    "text-generation": { protocol: "openai-completions", path: "/v3/openai/completions" },
    "text-to-video": { protocol: "novita-video" },
  },
};
