import type { ProviderConfig } from "./types.js";

export const replicate: ProviderConfig = {
  id: "replicate",
  displayName: "Replicate",
  baseUrl: "https://api.replicate.com",
  apiKeyEnv: "REPLICATE_API_TOKEN",
  tasks: {
    "text-to-image": { protocol: "replicate-prediction", input: "prompt" },
    "text-to-speech": { protocol: "replicate-prediction", input: "text" },
    "text-to-video": { protocol: "replicate-prediction", input: "prompt" },
    "image-to-image": { protocol: "replicate-prediction", input: "image" },
    // openai/whisper and its kin read `audio` (a data URL) and answer `{transcription, segments...}`.
    "automatic-speech-recognition": { protocol: "replicate-prediction", input: "audio", output: "text" },
  },
};
