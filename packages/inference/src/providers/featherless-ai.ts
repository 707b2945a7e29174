import { openAiCompatible } from "./openai-compatible.js";

export const featherlessAi = openAiCompatible({
  id: "featherless-ai",
  baseUrl: "https://api.featherless.ai",
  apiKeyEnv: "FEATHERLESS_API_KEY",
  completionsPath: "/v1/completions",
});
