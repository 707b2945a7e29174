import { openAiCompatible } from "./openai-compatible.js";

export const fireworksAi = openAiCompatible({
  id: "fireworks-ai",
  baseUrl: "https://api.fireworks.ai",
  apiKeyEnv: "FIREWORKS_API_KEY",
  chatPath: "/inference/v1/chat/completions",
});
