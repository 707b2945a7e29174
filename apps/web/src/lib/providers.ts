/** Inference providers a model may be mapped to (spec §3), with the names the UI shows. */
export const PROVIDER_LABELS: Record<string, string> = {
  "black-forest-labs": "Black Forest Labs",
  cerebras: "Cerebras",
  cohere: "Cohere",
  "fal-ai": "fal",
  "fireworks-ai": "Fireworks",
  "hf-inference": "HF Inference",
  hyperbolic: "Hyperbolic",
  nebius: "Nebius AI Studio",
  novita: "Novita",
  openai: "OpenAI",
  replicate: "Replicate",
  sambanova: "SambaNova",
  together: "Together AI",
};

export const PROVIDER_IDS = Object.keys(PROVIDER_LABELS);

export function providerLabel(provider: string): string {
  return PROVIDER_LABELS[provider] ?? provider;
}
