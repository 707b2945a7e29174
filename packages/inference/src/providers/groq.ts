import type { ProviderConfig } from "./types.js";

export const groq: ProviderConfig = {
  id: "groq",
  displayName: "Groq",
  baseUrl: "https://api.groq.com",
  apiKeyEnv: "GROQ_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat", path: "/openai/v1/chat/completions" },
    // Groq serves chat only (no /completions): a prompt goes as one user message, as on Hyperbolic.
    "text-generation": { protocol: "chat-text-generation", path: "/openai/v1/chat/completions" },
  },
};
