export * from "./errors.js";
export * from "./gguf.js";
export * from "./inputs/index.js";
export * from "./libraries/index.js";
export * from "./local-apps/index.js";
export * from "./model-data.js";
export * from "./pipelines.js";
export * from "./tasks/index.js";
