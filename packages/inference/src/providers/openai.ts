import type { ProviderConfig } from "./types.js";

/** OpenAI itself: chat only, its own key only, model ids written "openai/<model>". */
export const openai: ProviderConfig = {
  id: "openai",
  displayName: "OpenAI",
  baseUrl: "https://api.openai.com",
  apiKeyEnv: "OPENAI_API_KEY",
  modelPrefixRequired: true,
  rejectsHubToken: true,
  tasks: {
    conversational: { protocol: "openai-chat" },
  },
};
