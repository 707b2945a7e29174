import type { ProviderConfig } from "./types.js";

/** Cohere's OpenAI compatibility layer lives under /compatibility. */
export const cohere: ProviderConfig = {
  id: "cohere",
  displayName: "Cohere",
  baseUrl: "https://api.cohere.com",
  apiKeyEnv: "COHERE_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat", path: "/compatibility/v1/chat/completions" },
  },
};
