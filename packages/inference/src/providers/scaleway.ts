import { openAiEmbeddings } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

/** Scaleway Generative APIs: chat, completions and embeddings under /v1. */
export const scaleway = openAiCompatible({
  id: "scaleway",
  baseUrl: "https://api.scaleway.ai",
  apiKeyEnv: "SCW_SECRET_KEY",
  completionsPath: "/v1/completions",
  tasks: { "feature-extraction": openAiEmbeddings() },
});
