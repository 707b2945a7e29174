import type { ProviderConfig } from "./types.js";

export const fireworksAi: ProviderConfig = {
  id: "fireworks-ai",
  displayName: "Fireworks",
  baseUrl: "https://api.fireworks.ai",
  apiKeyEnv: "FIREWORKS_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat", path: "/inference/v1/chat/completions" },
  },
};
