import { openAiImages } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

/** Together names its base64 image format "base64" (not "b64_json"), but answers in `b64_json`. */
export const together = openAiCompatible({
  id: "together",
  baseUrl: "https://api.together.xyz",
  apiKeyEnv: "TOGETHER_API_KEY",
  completionsPath: "/v1/completions",
  tasks: { "text-to-image": openAiImages({ responseFormat: "base64" }) },
});
