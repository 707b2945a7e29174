import { openAiCompatible } from "./openai-compatible.js";

export const cerebras = openAiCompatible({
  id: "cerebras",
  baseUrl: "https://api.cerebras.ai",
  apiKeyEnv: "CEREBRAS_API_KEY",
});
