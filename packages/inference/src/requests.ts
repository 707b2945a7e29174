/**
 * The request builder alone (`@modelhub/inference/requests`): what a program that builds requests without
 * sending them needs (the snippet generator), without the HTTP client, its retries, streaming and polling.
 * Importing the package's main entry as well shares this code (one chunk), so nothing is loaded twice.
 */
export { defaultLogger } from "./logger.js";
export {
  getProviderConfig,
  INFERENCE_PROVIDERS,
  isInferenceProvider,
  PROVIDER_DISPLAY_NAMES,
  type ProviderInfo,
  providerDisplayName,
  providerTaskPairs,
  providerTaskProtocol,
  providerTaskSupported,
} from "./providers/index.js";
export {
  type BuildRequestParams,
  type BuiltRequest,
  buildRequest,
  DEFAULT_HUB_URL,
  DEFAULT_ROUTER_URL,
  type TokenKind,
  tokenKind,
} from "./routing/build-request.js";
export { FAL_AUDIO_CONTENT_TYPES } from "./tasks/validate-args.js";
export type { InferenceProvider, InferenceTask } from "./types.js";
