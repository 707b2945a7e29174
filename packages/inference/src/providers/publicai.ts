import { openAiCompatible } from "./openai-compatible.js";

export const publicai = openAiCompatible({
  id: "publicai",
  baseUrl: "https://api.publicai.co",
  apiKeyEnv: "PUBLICAI_API_KEY",
});
