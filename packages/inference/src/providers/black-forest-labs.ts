import type { ProviderConfig } from "./types.js";

/** Black Forest Labs: its own key in `X-Key`. */
export const blackForestLabs: ProviderConfig = {
  id: "black-forest-labs",
  displayName: "Black Forest Labs",
  baseUrl: "https://api.us1.bfl.ai",
  apiKeyEnv: "BFL_API_KEY",
  auth: { header: "X-Key" },
  tasks: {
    "text-to-image": { protocol: "bfl-job" },
  },
};
