import type { ProviderConfig } from "./types.js";

export const cerebras: ProviderConfig = {
  id: "cerebras",
  displayName: "Cerebras",
  baseUrl: "https://api.cerebras.ai",
  apiKeyEnv: "CEREBRAS_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
  },
};
