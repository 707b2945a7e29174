export { type ClientDefaults, InferenceClient } from "./client.js";
export * from "./errors.js";
export { type SseEvent, SseEventBatch, SseParser, sseEvents } from "./http/sse.js";
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
export * from "./tasks/all.js";
export type { RunOptions } from "./tasks/run.js";
export { FAL_AUDIO_CONTENT_TYPES } from "./tasks/validate-args.js";
export * from "./types.js";
