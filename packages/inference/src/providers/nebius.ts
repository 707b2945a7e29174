import { openAiEmbeddings, openAiImages } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

export const nebius = openAiCompatible({
  id: "nebius",
  baseUrl: "https://api.studio.nebius.ai",
  apiKeyEnv: "NEBIUS_API_KEY",
  completionsPath: "/v1/completions",
  tasks: {
    "text-to-image": openAiImages({ responseFormat: "b64_json" }),
    "feature-extraction": openAiEmbeddings(),
  },
});
