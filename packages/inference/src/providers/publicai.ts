import type { ProviderConfig } from "./types.js";

export const publicai: ProviderConfig = {
  id: "publicai",
  displayName: "Public AI",
  baseUrl: "https://api.publicai.co",
  apiKeyEnv: "PUBLICAI_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
  },
};
