import type { ProviderConfig } from "./types.js";

/** fal.ai: its own key as `Authorization: Key <key>`; video through its queue (queue.fal.run). */
export const falAi: ProviderConfig = {
  id: "fal-ai",
  displayName: "fal",
  baseUrl: "https://fal.run",
  apiKeyEnv: "FAL_KEY",
  auth: { header: "Authorization", scheme: "Key" },
  tasks: {
    "text-to-image": { protocol: "fal-sync", input: "prompt", output: "images", syncMode: true },
    "image-to-image": { protocol: "fal-sync", input: "image_url", output: "images" },
    "automatic-speech-recognition": { protocol: "fal-sync", input: "audio_url", output: "text" },
    // fal's speech apps read the text from `text` (Dia, Orpheus, Chatterbox, MiniMax, ElevenLabs: what
    // huggingface_hub and @huggingface/inference send), except Kokoro's, which read `prompt` (and take
    // an empty one when it is missing: fal.ai/models/fal-ai/kokoro/american-english/api).
    "text-to-speech": {
      protocol: "fal-sync",
      input: "text",
      inputFor: { "fal-ai/kokoro": "prompt" },
      output: "audio",
    },
    "text-to-video": { protocol: "fal-queue", input: "prompt", output: "video" },
    // Music and sound apps (fal.ai/models/fal-ai/stable-audio/api): the prompt in, `audio.url` out.
    "text-to-audio": { protocol: "fal-queue", input: "prompt", output: "audio" },
    "image-to-video": { protocol: "fal-queue", input: "image_url", output: "video" },
    // The prompt travels in `parameters`; the image (optional for some models) as `image_url(s)`.
    "image-text-to-image": {
      protocol: "fal-queue",
      input: "image_url",
      inputList: "image_urls",
      output: "images",
    },
    "image-text-to-video": { protocol: "fal-queue", input: "image_url", output: "video" },
    // Audio apps (speech enhancement, voice changers): the file as `audio_url`, the result's `audio.url`
    // as the hub's audio-to-audio output (both hub clients use the queue).
    "audio-to-audio": { protocol: "fal-queue", input: "audio_url", output: "audio-sources" },
    // Background removal and mask apps: `image_url` in, the mask inline (`sync_mode`) at `image.url`.
    "image-segmentation": { protocol: "fal-queue", input: "image_url", output: "mask", syncMode: true },
  },
};
