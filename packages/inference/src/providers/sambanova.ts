import type { ProviderConfig } from "./types.js";

export const sambanova: ProviderConfig = {
  id: "sambanova",
  displayName: "SambaNova",
  baseUrl: "https://api.sambanova.ai",
  apiKeyEnv: "SAMBANOVA_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "feature-extraction": { protocol: "openai-embeddings" },
  },
};
