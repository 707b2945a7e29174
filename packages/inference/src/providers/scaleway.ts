import type { ProviderConfig } from "./types.js";

/** Scaleway Generative APIs: chat, completions and embeddings under /v1. */
export const scaleway: ProviderConfig = {
  id: "scaleway",
  displayName: "Scaleway",
  baseUrl: "https://api.scaleway.ai",
  apiKeyEnv: "SCW_SECRET_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "openai-completions" },
    "feature-extraction": { protocol: "openai-embeddings" },
  },
};
