import { openAiCompatible } from "./openai-compatible.js";

/** Cohere's OpenAI compatibility layer lives under /compatibility. */
export const cohere = openAiCompatible({
  id: "cohere",
  baseUrl: "https://api.cohere.com",
  apiKeyEnv: "COHERE_API_KEY",
  chatPath: "/compatibility/v1/chat/completions",
});
