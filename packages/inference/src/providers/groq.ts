import { openAiCompatible } from "./openai-compatible.js";

export const groq = openAiCompatible({
  id: "groq",
  baseUrl: "https://api.groq.com",
  apiKeyEnv: "GROQ_API_KEY",
  chatPath: "/openai/v1/chat/completions",
});
