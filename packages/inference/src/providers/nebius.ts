import type { ProviderConfig } from "./types.js";

export const nebius: ProviderConfig = {
  id: "nebius",
  displayName: "Nebius AI Studio",
  baseUrl: "https://api.studio.nebius.ai",
  apiKeyEnv: "NEBIUS_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "openai-completions" },
    "text-to-image": { protocol: "openai-images" },
    "feature-extraction": { protocol: "openai-embeddings" },
  },
};
