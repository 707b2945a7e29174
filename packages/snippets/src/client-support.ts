/**
 * The providers and tasks the two hub clients themselves implement (huggingface_hub 2.0 for Python,
 * @huggingface/inference 4.13 for JS). A snippet for one of these clients is shown only where the client
 * can make the call: they dropped some providers (e.g. hyperbolic, nebius, sambanova) that the raw HTTP
 * and OpenAI-compatible snippets still reach. client-support.test.ts checks these tables against the
 * installed packages.
 */
export const HUB_CLIENT_SUPPORT: Record<
  "huggingface_hub" | "huggingface.js",
  Record<string, readonly string[]>
> = {
  huggingface_hub: {
    baseten: ["conversational"],
    cerebras: ["conversational"],
    cohere: ["conversational"],
    deepinfra: [
      "automatic-speech-recognition",
      "conversational",
      "feature-extraction",
      "text-generation",
      "text-to-speech",
    ],
    "fal-ai": [
      "automatic-speech-recognition",
      "image-segmentation",
      "image-to-image",
      "image-to-video",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    "featherless-ai": ["conversational", "text-generation"],
    "fireworks-ai": ["conversational"],
    groq: ["conversational"],
    "hf-inference": [
      "audio-classification",
      "audio-to-audio",
      "automatic-speech-recognition",
      "conversational",
      "document-question-answering",
      "feature-extraction",
      "fill-mask",
      "image-classification",
      "image-segmentation",
      "image-to-image",
      "image-to-text",
      "object-detection",
      "question-answering",
      "sentence-similarity",
      "summarization",
      "table-question-answering",
      "tabular-classification",
      "text-classification",
      "text-generation",
      "text-to-image",
      "text-to-speech",
      "token-classification",
      "translation",
      "visual-question-answering",
      "zero-shot-classification",
      "zero-shot-image-classification",
    ],
    novita: ["conversational", "text-generation", "text-to-video"],
    nscale: ["conversational", "text-to-image"],
    openai: ["conversational"],
    ovhcloud: ["conversational"],
    publicai: ["conversational"],
    replicate: [
      "automatic-speech-recognition",
      "image-to-image",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    scaleway: ["conversational", "feature-extraction"],
    together: [
      "conversational",
      "feature-extraction",
      "image-to-image",
      "image-to-video",
      "text-generation",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    wavespeed: ["image-to-image", "image-to-video", "text-to-image", "text-to-video"],
    "zai-org": ["conversational", "text-to-image"],
  },
  "huggingface.js": {
    baseten: ["conversational"],
    cerebras: ["conversational"],
    cohere: ["conversational"],
    deepinfra: [
      "automatic-speech-recognition",
      "conversational",
      "feature-extraction",
      "text-generation",
      "text-to-image",
      "text-to-speech",
    ],
    "fal-ai": [
      "audio-to-audio",
      "automatic-speech-recognition",
      "image-text-to-image",
      "image-text-to-video",
      "image-to-image",
      "image-segmentation",
      "image-to-video",
      "text-to-audio",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    "featherless-ai": ["conversational", "text-generation"],
    "fireworks-ai": ["conversational"],
    groq: ["conversational", "text-generation"],
    "hf-inference": [
      "audio-classification",
      "audio-to-audio",
      "automatic-speech-recognition",
      "conversational",
      "document-question-answering",
      "feature-extraction",
      "fill-mask",
      "image-classification",
      "image-segmentation",
      "image-to-image",
      "image-to-text",
      "object-detection",
      "question-answering",
      "sentence-similarity",
      "summarization",
      "table-question-answering",
      "tabular-classification",
      "tabular-regression",
      "text-classification",
      "text-generation",
      "text-to-audio",
      "text-to-image",
      "text-to-speech",
      "token-classification",
      "translation",
      "visual-question-answering",
      "zero-shot-classification",
      "zero-shot-image-classification",
    ],
    novita: ["conversational", "image-text-to-video", "text-generation", "text-to-video"],
    nscale: ["conversational", "text-to-image"],
    openai: ["conversational"],
    ovhcloud: ["conversational", "text-generation"],
    publicai: ["conversational"],
    replicate: [
      "automatic-speech-recognition",
      "image-to-image",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    scaleway: ["conversational", "feature-extraction", "text-generation"],
    together: [
      "automatic-speech-recognition",
      "conversational",
      "feature-extraction",
      "image-to-image",
      "image-to-video",
      "text-generation",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
    ],
    wavespeed: [
      "image-text-to-image",
      "image-text-to-video",
      "image-to-image",
      "image-to-video",
      "text-to-image",
      "text-to-video",
    ],
    "zai-org": ["conversational", "image-to-text", "text-to-image"],
  },
};

/** Whether the client implements the call and can finish it as a pasted script. */
export function hubClientSupports(
  client: keyof typeof HUB_CLIENT_SUPPORT,
  provider: string,
  task: string,
): boolean {
  if (HUB_CLIENT_CANNOT_FINISH[client]?.[provider]?.includes(task)) return false;
  return HUB_CLIENT_SUPPORT[client][provider]?.includes(task) ?? false;
}

/**
 * Calls a hub client implements but cannot finish as a pasted script, found by running the snippets.
 * @huggingface/inference 4.13 waits between status polls with an unref'd timer, so a plain `node` script
 * exits (code 13, unsettled top-level await) before the job completes; its polls also ignore the client's
 * `fetch` option. Every task it polls for is affected. huggingface_hub 2.0 sends tabular inputs as
 * `{"table": ...}`, which the API refuses (it reads `inputs`): its tabular snippets would never run; its
 * Together text-to-speech sends no `voice`, which Together's /v1/audio/speech requires.
 * @huggingface/inference 4.13's Groq text generation posts `{inputs, parameters}` to Groq's chat endpoint,
 * which reads `messages` and refuses it.
 */
export const HUB_CLIENT_CANNOT_FINISH: Partial<
  Record<keyof typeof HUB_CLIENT_SUPPORT, Record<string, readonly string[]>>
> = {
  huggingface_hub: {
    "hf-inference": ["tabular-classification", "tabular-regression"],
    together: ["text-to-speech"],
  },
  "huggingface.js": {
    "fal-ai": [
      "image-text-to-image",
      "image-text-to-video",
      "image-to-image",
      "image-to-video",
      "text-to-image",
      "text-to-video",
    ],
    groq: ["text-generation"],
    // Its hf-inference image-to-text reads `{generated_text}`; the API answers `[{generated_text}]`.
    "hf-inference": ["image-to-text"],
    novita: ["image-text-to-video", "text-to-video"],
    together: ["image-to-video", "text-to-video"],
    wavespeed: [
      "image-text-to-image",
      "image-text-to-video",
      "image-to-image",
      "image-to-video",
      "text-to-image",
      "text-to-video",
    ],
    "zai-org": ["text-to-image"],
  },
};
