import type { TopProduct } from "../data-api.js";

/** A fixed ranking of real public models, most downloaded first. */
export const TOP_PRODUCTS: TopProduct[] = [
  { id: "meta-llama/Llama-3.1-8B-Instruct", pipeline_tag: "text-generation", downloads: 6_120_431, likes: 4_310 },
  { id: "openai/whisper-large-v3", pipeline_tag: "automatic-speech-recognition", downloads: 4_870_112, likes: 4_902 },
  { id: "sentence-transformers/all-MiniLM-L6-v2", pipeline_tag: "sentence-similarity", downloads: 3_900_220, likes: 3_120 },
  { id: "Qwen/Qwen2.5-7B-Instruct", pipeline_tag: "text-generation", downloads: 2_450_876, likes: 712 },
  { id: "black-forest-labs/FLUX.1-dev", pipeline_tag: "text-to-image", downloads: 1_980_345, likes: 10_870 },
  { id: "meta-llama/Llama-3.2-1B", pipeline_tag: "text-generation", downloads: 1_520_009, likes: 1_830 },
  { id: "google/gemma-2-2b-it", pipeline_tag: "text-generation", downloads: 987_654, likes: 1_021 },
  { id: "mistralai/Mistral-7B-Instruct-v0.3", pipeline_tag: "text-generation", downloads: 765_432, likes: 1_554 },
  { id: "stabilityai/stable-diffusion-xl-base-1.0", pipeline_tag: "text-to-image", downloads: 543_210, likes: 6_430 },
  { id: "meta-llama/Llama-Guard-3-8B", pipeline_tag: "text-generation", downloads: 123_456, likes: 250 },
];

/** Records whose text tries to become markup; the hub stores whatever was uploaded. */
export const HOSTILE_PRODUCTS: TopProduct[] = [
  { id: 'evil/<img src=x onerror="window.__pwned=1">', pipeline_tag: "<script>window.__pwned=2</script>", downloads: 3 },
  { id: 'evil/"><svg onload="window.__pwned=3"></svg>', pipeline_tag: "text-generation", likes: 2 },
  { id: "<b>bold</b>/</style><script>window.__pwned=4</script>", downloads: 1 },
];
