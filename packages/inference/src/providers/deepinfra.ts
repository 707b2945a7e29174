import type { ProviderConfig } from "./types.js";

/** DeepInfra serves its OpenAI-compatible API under /v1/openai. */
export const deepinfra: ProviderConfig = {
  id: "deepinfra",
  displayName: "DeepInfra",
  baseUrl: "https://api.deepinfra.com",
  apiKeyEnv: "DEEPINFRA_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat", path: "/v1/openai/chat/completions" },
    "text-generation": { protocol: "openai-completions", path: "/v1/openai/completions" },
    "feature-extraction": { protocol: "openai-embeddings", path: "/v1/openai/embeddings" },
    "text-to-image": { protocol: "openai-images", path: "/v1/openai/images/generations" },
    "text-to-speech": { protocol: "openai-speech", path: "/v1/openai/audio/speech" },
  },
};
