import type { ProviderConfig } from "./types.js";

export const wavespeed: ProviderConfig = {
  id: "wavespeed",
  displayName: "WaveSpeed",
  baseUrl: "https://api.wavespeed.ai",
  apiKeyEnv: "WAVESPEED_API_KEY",
  tasks: {
    "text-to-image": { protocol: "wavespeed-job" },
    "image-to-image": { protocol: "wavespeed-job", imageInput: true },
    "image-to-video": { protocol: "wavespeed-job", imageInput: true },
    "text-to-video": { protocol: "wavespeed-job" },
    // Edits and animations with a prompt (Qwen-Image-Edit, Wan TI2V): the image, when given, as `image`.
    "image-text-to-image": { protocol: "wavespeed-job", imageInput: true },
    "image-text-to-video": { protocol: "wavespeed-job", imageInput: true },
  },
};
