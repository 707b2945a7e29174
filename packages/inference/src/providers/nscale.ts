import { openAiImages } from "../protocols/openai-media.js";
import { openAiCompatible } from "./openai-compatible.js";

export const nscale = openAiCompatible({
  id: "nscale",
  baseUrl: "https://inference.api.nscale.com",
  apiKeyEnv: "NSCALE_API_KEY",
  tasks: { "text-to-image": openAiImages({ responseFormat: "b64_json" }) },
});
