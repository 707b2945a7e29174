import type { ProviderConfig } from "./types.js";

/** Hyperbolic: text generation goes through chat; images want `model_name` and answer `images[].image`. */
export const hyperbolic: ProviderConfig = {
  id: "hyperbolic",
  displayName: "Hyperbolic",
  baseUrl: "https://api.hyperbolic.xyz",
  apiKeyEnv: "HYPERBOLIC_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "chat-text-generation" },
    "text-to-image": { protocol: "hyperbolic-images" },
  },
};
