export * from "./errors.js";
export {
  getProviderConfig,
  INFERENCE_PROVIDERS,
  isInferenceProvider,
  type ProviderInfo,
  providerTaskPairs,
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
export * from "./types.js";
