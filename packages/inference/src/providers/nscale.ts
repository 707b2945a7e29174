import type { ProviderConfig } from "./types.js";

export const nscale: ProviderConfig = {
  id: "nscale",
  displayName: "Nscale",
  baseUrl: "https://inference.api.nscale.com",
  apiKeyEnv: "NSCALE_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-to-image": { protocol: "openai-images" },
  },
};
