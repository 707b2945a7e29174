export { type AppDeps, type AppLimits, createApp } from "./app.js";
export { ConfigError, type HubConfig, parseConfig } from "./config.js";
export * from "./errors.js";
export { createJsonLogger, createMemoryLogger, type Logger, type LogLevel, silentLogger } from "./logger.js";
export { type RunningHub, type StartHubOptions, startHub } from "./start-hub.js";
export type { ProviderMapping, ProviderMappings } from "./store/mapping-record.js";
export type { StoredModel } from "./store/models-table.js";
export { openStore, type Store } from "./store/store.js";
