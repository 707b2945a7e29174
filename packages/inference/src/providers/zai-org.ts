import { openAiCompatible } from "./openai-compatible.js";

/** Z.ai: OpenAI-compatible chat under /api/paas/v4; asks callers to name their channel. */
export const zaiOrg = openAiCompatible({
  id: "zai-org",
  baseUrl: "https://api.z.ai",
  apiKeyEnv: "ZAI_API_KEY",
  chatPath: "/api/paas/v4/chat/completions",
  headers: { "x-source-channel": "hugging_face", "accept-language": "en-US,en" },
});
