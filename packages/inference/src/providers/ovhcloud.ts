import { openAiCompatible } from "./openai-compatible.js";

/** OVHcloud AI Endpoints (OpenAI-compatible). */
export const ovhcloud = openAiCompatible({
  id: "ovhcloud",
  baseUrl: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
  apiKeyEnv: "OVHCLOUD_API_KEY",
  completionsPath: "/v1/completions",
});
