import type { ProviderConfig } from "./types.js";

export const featherlessAi: ProviderConfig = {
  id: "featherless-ai",
  displayName: "Featherless AI",
  baseUrl: "https://api.featherless.ai",
  apiKeyEnv: "FEATHERLESS_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "openai-completions" },
  },
};
