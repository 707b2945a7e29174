import type { ChatMessage } from "./types.js";

/** Spec §9: the prompt image snippets use by default. */
export const TEXT_TO_IMAGE_PROMPT = "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k";
/** Spec §9: candidate labels of the zero-shot text example. */
export const ZERO_SHOT_TEXT_LABELS: readonly string[] = ["refund", "legal", "faq"];
export const ZERO_SHOT_TEXT_EXAMPLE =
  "Hi, I recently bought a device from your company but it was not as advertised and I would like to get some money back";
/** Spec §9: candidate labels of the zero-shot image example. */
export const ZERO_SHOT_IMAGE_LABELS: readonly string[] = ["cat", "dog", "llama"];

/** Local sample files that snippets read; their names are what users see in the code. */
export const SAMPLE_AUDIO_FILE = { fileName: "sample1.flac", contentType: "audio/flac" } as const;
export const SAMPLE_IMAGE_FILE = { fileName: "cats.jpg", contentType: "image/jpeg" } as const;
export const SAMPLE_VIDEO_FILE = { fileName: "video.mp4", contentType: "video/mp4" } as const;
export const SAMPLE_DOCUMENT_FILE = { fileName: "invoice.png", contentType: "image/png" } as const;
/** A public image URL for chat messages with an image part (they take URLs, not files). */
export const SAMPLE_IMAGE_URL =
  "https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/coco_sample.png";

/** Spec §9: chat snippets ask for at most this many tokens unless the user sets max_tokens. */
export const CHAT_DEFAULT_MAX_TOKENS = 500;
/** The conversation chat snippets send when the user gives none. */
export const DEFAULT_CHAT_MESSAGES: readonly ChatMessage[] = [
  { role: "user", content: "What is the capital of France?" },
];
export const DEFAULT_VISION_CHAT_PROMPT = "Describe this image in one sentence.";

/** Spec §9: diffusion snippets' sampling steps and guidance scale. */
export const DIFFUSION_DEFAULT_STEPS = 50;
export const DIFFUSION_DEFAULT_GUIDANCE_SCALE = 5;
/** FLUX models are distilled: few steps and no classifier-free guidance. */
export const FLUX_DEFAULT_STEPS = 4;
export const FLUX_DEFAULT_GUIDANCE_SCALE = 0;
/** Spec §9: the Sana snippet renders 1024x1024 in 18 steps. */
export const SANA_DEFAULT_SIZE = { width: 1024, height: 1024 } as const;
export const SANA_DEFAULT_STEPS = 18;

export interface DiffusionDefaults {
  steps: number;
  guidanceScale: number;
  width?: number;
  height?: number;
}

/** The sampling settings a diffusion snippet shows for a model, chosen by the model family in its id. */
export function getDiffusionDefaults(modelId: string): DiffusionDefaults {
  const name = modelId.toLowerCase();
  if (name.includes("flux")) return { steps: FLUX_DEFAULT_STEPS, guidanceScale: FLUX_DEFAULT_GUIDANCE_SCALE };
  if (name.includes("sana")) {
    return {
      steps: SANA_DEFAULT_STEPS,
      guidanceScale: DIFFUSION_DEFAULT_GUIDANCE_SCALE,
      ...SANA_DEFAULT_SIZE,
    };
  }
  return { steps: DIFFUSION_DEFAULT_STEPS, guidanceScale: DIFFUSION_DEFAULT_GUIDANCE_SCALE };
}
