import type { ProviderConfig } from "./types.js";

/** Baseten Model APIs (OpenAI-compatible). */
export const baseten: ProviderConfig = {
  id: "baseten",
  displayName: "Baseten",
  baseUrl: "https://inference.baseten.co",
  apiKeyEnv: "BASETEN_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
  },
};
