import type { ProviderConfig } from "./types.js";

/** OVHcloud AI Endpoints (OpenAI-compatible). */
export const ovhcloud: ProviderConfig = {
  id: "ovhcloud",
  displayName: "OVHcloud AI Endpoints",
  baseUrl: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
  apiKeyEnv: "OVHCLOUD_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "openai-completions" },
  },
};
