import { openAiEmbeddings } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

export const sambanova = openAiCompatible({
  id: "sambanova",
  baseUrl: "https://api.sambanova.ai",
  apiKeyEnv: "SAMBANOVA_API_KEY",
  tasks: { "feature-extraction": openAiEmbeddings() },
});
