import { openAiEmbeddings, openAiImages } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

/** DeepInfra serves its OpenAI-compatible API under /v1/openai. */
export const deepinfra = openAiCompatible({
  id: "deepinfra",
  baseUrl: "https://api.deepinfra.com",
  apiKeyEnv: "DEEPINFRA_API_KEY",
  chatPath: "/v1/openai/chat/completions",
  completionsPath: "/v1/openai/completions",
  tasks: {
    "feature-extraction": openAiEmbeddings("/v1/openai/embeddings"),
    "text-to-image": openAiImages({ path: "/v1/openai/images/generations", responseFormat: "b64_json" }),
  },
});
