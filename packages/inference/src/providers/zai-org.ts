import type { ProviderConfig } from "./types.js";

/** Z.ai: OpenAI-compatible chat under /api/paas/v4; asks callers to name their channel. */
export const zaiOrg: ProviderConfig = {
  id: "zai-org",
  displayName: "Z.ai",
  baseUrl: "https://api.z.ai",
  apiKeyEnv: "ZAI_API_KEY",
  headers: { "x-source-channel": "hugging_face", "accept-language": "en-US,en" },
  tasks: {
    conversational: { protocol: "openai-chat", path: "/api/paas/v4/chat/completions" },
    "text-to-image": { protocol: "zai-image-job" },
    // Image to text is its layout parsing (OCR to Markdown), as the public client maps it.
    "image-to-text": { protocol: "zai-layout-parsing" },
  },
};
