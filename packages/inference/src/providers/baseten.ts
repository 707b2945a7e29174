import { openAiCompatible } from "./openai-compatible.js";

/** Baseten Model APIs (OpenAI-compatible). */
export const baseten = openAiCompatible({
  id: "baseten",
  baseUrl: "https://inference.baseten.co",
  apiKeyEnv: "BASETEN_API_KEY",
});
