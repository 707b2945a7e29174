import type { ProviderConfig } from "./types.js";

/** Together names its base64 image format "base64" (not "b64_json") but answers in `b64_json`. */
export const together: ProviderConfig = {
  id: "together",
  displayName: "Together AI",
  baseUrl: "https://api.together.xyz",
  apiKeyEnv: "TOGETHER_API_KEY",
  tasks: {
    conversational: { protocol: "openai-chat" },
    "text-generation": { protocol: "openai-completions" },
    "text-to-image": { protocol: "openai-images", responseFormat: "base64" },
    // OpenAI's embeddings API at /v1/embeddings (docs.together.ai/reference/embeddings-2).
    "feature-extraction": { protocol: "openai-embeddings" },
    // /v1/audio/speech refuses a body without `voice`; Kokoro's default is af_alloy (as the public client).
    "text-to-speech": { protocol: "openai-speech", voiceFor: { kokoro: "af_alloy" } },
    // Image edits on the images endpoint (docs.together.ai/docs/image-to-image).
    "image-to-image": { protocol: "together-image-edit" },
    // Video jobs at /v2/videos (docs.together.ai/reference/create-videos).
    "text-to-video": { protocol: "together-video" },
    "image-to-video": { protocol: "together-video", imageInput: true },
  },
};
